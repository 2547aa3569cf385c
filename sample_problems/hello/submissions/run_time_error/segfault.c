#include <stdio.h>

int main(void) {
    int *p = NULL;
    char name[64];
    if (scanf("%63s", name) == 1) *p = 1;  /* null dereference */
    printf("Hello %s!\n", name);
    return 0;
}
