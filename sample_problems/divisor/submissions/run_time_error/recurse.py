import sys


def smallest(n: int, d: int) -> int:
    return d if n % d == 0 else smallest(n, d + 1)


print(smallest(int(sys.stdin.readline()), 2))  # recursion depth runs out on big primes
