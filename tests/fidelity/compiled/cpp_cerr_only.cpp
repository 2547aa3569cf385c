#include <iostream>
int main() { std::cerr << "to stderr" << std::endl; }
