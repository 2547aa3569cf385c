/* 32-bit sums pass group 1 only. @EXPECTED_RESULT@: 30 */
#include <stdio.h>

int main(void) {
    int n, sum = 0, v;
    if (scanf("%d", &n) != 1) return 1;
    while (n-- > 0 && scanf("%d", &v) == 1) sum += v;
    printf("%d\n", sum);
    return 0;
}
