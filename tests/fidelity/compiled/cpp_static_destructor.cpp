#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
struct S { ~S() { std::cout << "destructor" << std::endl; } } s;
int main() { std::cout << "main" << std::endl; }
