#include <stdio.h>
#include <signal.h>
int main(void) { printf("before\n"); fflush(stdout); raise(SIGTERM); return 0; }
