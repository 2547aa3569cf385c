import sys
sys.setrecursionlimit(3000)
def f(n):
    return f(n + 1)
try:
    f(0)
except RecursionError:
    print('recursion error caught')
