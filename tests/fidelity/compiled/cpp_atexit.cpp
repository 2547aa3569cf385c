#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
void bye() { std::cout << "atexit" << std::endl; }
int main() { std::atexit(bye); std::cout << "main" << std::endl; }
