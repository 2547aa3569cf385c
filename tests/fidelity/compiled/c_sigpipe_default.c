#include <stdio.h>
#include <signal.h>
int main(void) { void (*old)(int) = signal(SIGPIPE, SIG_DFL); printf("%d\n", old == SIG_DFL); return 0; }
