#include <bits/stdc++.h>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
using namespace std;
using namespace __gnu_pbds;
typedef tree<int, null_type, less<int>, rb_tree_tag, tree_order_statistics_node_update> os;
int main() { os s; for (int x : {5, 1, 3}) s.insert(x); cout << *s.find_by_order(1) << ' ' << s.order_of_key(4) << endl; }
