// @EXPECTED_RESULT@: AC
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long v;
        scanf("%lld", &v);
        sum += v;
    }
    printf("%.9f\n", (double)sum / n);
}
