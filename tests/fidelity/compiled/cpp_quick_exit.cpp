#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::at_quick_exit([] { std::puts("at quick exit"); }); std::cout << "lost? "; std::quick_exit(0); }
