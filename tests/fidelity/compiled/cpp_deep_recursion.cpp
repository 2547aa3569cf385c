#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int f(int n) { volatile char pad[64]; pad[0] = (char)n; return n == 0 ? pad[0] : 1 + f(n - 1); }
int main() { std::cout << f(1000000) << std::endl; }
