#include <bits/stdc++.h>
#include <bits/stdc++.h>
int main() { return missing; }
