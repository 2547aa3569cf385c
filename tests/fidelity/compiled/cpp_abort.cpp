#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::cout << "abort" << std::endl; std::abort(); }
