#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
using namespace std;
int main() { ios::sync_with_stdio(false); printf("printf\n"); cout << "cout\n"; printf("printf again\n"); }
