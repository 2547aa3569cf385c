#include <stdio.h>
#include <string.h>
int main(void) { char big[64 << 20]; memset(big, 1, sizeof big); printf("%d\n", big[12345]); return 0; }
