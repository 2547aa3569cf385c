#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::string line; int n = 0; while (std::getline(std::cin, line)) ++n; std::cout << n << std::endl; }
