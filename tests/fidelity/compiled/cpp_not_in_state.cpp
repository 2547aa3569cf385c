#include <cstdio>
#include <numeric>
#include <bits/stdc++.h>
int main() { std::printf("%d\n", std::gcd(12, 18)); }
