import sys
from functools import lru_cache
sys.setrecursionlimit(10000)
@lru_cache(None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(3000) % 1000000007)
