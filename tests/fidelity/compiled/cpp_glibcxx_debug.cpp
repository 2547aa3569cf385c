#define _GLIBCXX_DEBUG
#include <bits/stdc++.h>
using namespace std;
int main() { vector<int> v(3); cout << v.size() << endl; }
