#include <iostream>
#include <string>
#include <vector>
#include <algorithm>
#include <thread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
extern char **environ;
int main() { std::vector<std::string> v; for (char **e = environ; *e; ++e) v.push_back(std::string(*e).substr(0, std::string(*e).find('='))); std::sort(v.begin(), v.end()); for (auto &k : v) std::cout << k << ' '; std::cout << std::endl; }
