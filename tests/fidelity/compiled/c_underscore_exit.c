#include <stdio.h>
#include <unistd.h>
int main(void) { printf("lost\n"); _exit(1); }
