#pragma GCC optimize("O3,unroll-loops")
#include <bits/stdc++.h>
using namespace std;
int main() { long long a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }
