#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { long long r = 0; std::thread t([&] { for (int i = 0; i < 1000; ++i) r += i; }); t.join(); std::cout << r << std::endl; }
