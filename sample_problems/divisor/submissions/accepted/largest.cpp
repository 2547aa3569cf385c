#include <cstdio>

int main() {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    for (long long d = 2; d * d <= n; d++) {
        if (n % d == 0) {
            printf("%lld\n", n / d);  // the largest proper divisor
            return 0;
        }
    }
    return 1;
}
