#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::string s(200000, 'x'); for (int i = 0; i < 5; ++i) std::cout << s << '\n'; }
