// a contest template, then the solution, each with its includes
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
#define all(x) (x).begin(), (x).end()
// ---- solution ----
#include <bits/stdc++.h>
#include <algorithm>
int main() { vector<ll> v{3, 1, 2}; sort(all(v)); for (ll x : v) cout << x << ' '; cout << '\n'; }
