#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#pragma GCC optimize("Ofast")
#include <bits/stdc++.h>
using namespace std;
int main() { unsigned x = 0xF0F0; cout << __builtin_popcount(x) << endl; }
