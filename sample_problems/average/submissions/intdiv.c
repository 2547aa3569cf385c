/* Integer division loses the fraction. @EXPECTED_RESULT@: WA */
#include <stdio.h>

int main(void) {
    int n;
    long long sum = 0, v;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &v);
        sum += v;
    }
    printf("%lld\n", sum / n);
    return 0;
}
