#include <stdio.h>

int main(void) {
    volatile unsigned long x = 0;
    for (;;) x++;  /* never finishes */
    printf("%lu\n", x);
    return 0;
}
