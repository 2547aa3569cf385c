#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <unistd.h>
int main() { std::printf("lost to a pipe\n"); _exit(0); }
