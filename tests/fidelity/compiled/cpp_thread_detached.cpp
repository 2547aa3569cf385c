#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
int main() { std::thread([] { std::this_thread::sleep_for(std::chrono::seconds(5)); }).detach(); std::cout << "main" << std::endl; }
