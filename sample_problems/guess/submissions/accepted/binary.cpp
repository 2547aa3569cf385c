#include <iostream>
#include <string>

int main() {
    int lo = 1, hi = 1000;
    std::string reply;
    while (true) {
        int mid = (lo + hi) / 2;
        std::cout << mid << std::endl;
        if (!(std::cin >> reply) || reply == "correct") break;
        if (reply == "lower") hi = mid - 1; else lo = mid + 1;
    }
}
