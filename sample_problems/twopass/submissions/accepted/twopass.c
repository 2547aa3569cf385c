#include <stdio.h>

int main(void) {
    long long kind, value;
    if (scanf("%lld %lld", &kind, &value) != 2) return 1;
    printf("%lld\n", kind == 1 ? value * value : value + 1);
    return 0;
}
