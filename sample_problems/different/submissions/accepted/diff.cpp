#include <cstdio>
#include <cstdlib>

int main() {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) printf("%lld\n", llabs(a - b));
}
