#include <iostream>
int main() { std::cout << "no newline at end"; }
