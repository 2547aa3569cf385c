#include <iostream>
#include <string>
int main() {
    long lo = 1, hi = 1000000;
    std::string answer;
    while (true) {
        long mid = (lo + hi) / 2;
        std::cout << mid << std::endl;
        if (!(std::cin >> answer) || answer == "correct") return 0;
        if (answer == "higher") lo = mid + 1; else hi = mid - 1;
    }
}
