#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::cout << "before" << std::endl; std::thread t([] { std::exit(4); }); t.join(); std::cout << "never" << std::endl; }
