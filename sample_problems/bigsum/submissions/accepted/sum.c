#include <stdio.h>

int main(void) {
    int n;
    long long sum = 0, v;
    if (scanf("%d", &n) != 1) return 1;
    while (n-- > 0 && scanf("%lld", &v) == 1) sum += v;
    printf("%lld\n", sum);
    return 0;
}
