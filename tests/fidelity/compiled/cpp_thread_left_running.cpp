#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::thread t([] { std::this_thread::sleep_for(std::chrono::milliseconds(10)); }); std::cout << "main" << std::endl; return 0; }
