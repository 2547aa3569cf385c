#define int long long
#include <bits/stdc++.h>
using namespace std;
signed main() { int a, b; cin >> a >> b; cout << a * 1000000007LL + b << endl; }
