#include <stdio.h>
#include <stdlib.h>
void h(void) { printf("handler\n"); }
int main(void) { atexit(h); printf("main\n"); exit(6); }
