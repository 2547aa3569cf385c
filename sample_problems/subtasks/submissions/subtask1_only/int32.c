#include <stdio.h>
int main(void) {  /* overflows on the large group */
    int n, a, total = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (scanf("%d", &a) != 1) return 1;
        total = (int)((unsigned)total + (unsigned)a);
    }
    printf("%d\n", total);
    return 0;
}
