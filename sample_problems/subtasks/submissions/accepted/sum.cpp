#include <cstdio>
int main() {
    int n;
    long long total = 0, a;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        if (scanf("%lld", &a) != 1) return 1;
        total += a;
    }
    printf("%lld\n", total);
}
