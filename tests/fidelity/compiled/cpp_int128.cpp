#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { __int128 x = (__int128)1 << 100; std::string s; while (x) { s += char('0' + x % 10); x /= 10; } std::reverse(s.begin(), s.end()); std::cout << s << std::endl; }
