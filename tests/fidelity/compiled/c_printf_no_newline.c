#include <stdio.h>
int main(void) { printf("no newline"); return 0; }
