#include <iostream>
int main() { std::cout << "seven" << std::endl; return 7; }
