#include <bits/stdc++.h>
using namespace std;
int main() { ios::sync_with_stdio(false); cin.tie(nullptr); long long s = 0, x; while (cin >> x) s += x; cout << s << '\n'; }
