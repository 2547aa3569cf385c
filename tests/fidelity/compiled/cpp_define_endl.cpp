#include <iostream>
#define endl '\n'
using namespace std;
int main() { cout << 1 << endl << 2 << endl; }
