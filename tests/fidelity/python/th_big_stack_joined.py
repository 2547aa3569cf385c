import sys, threading
sys.setrecursionlimit(10 ** 6)
threading.stack_size(2 ** 26)
def f(n):
    return n if n < 2 else f(n - 1) + 1
t = threading.Thread(target=lambda: print(f(50000)))
t.start()
t.join()
print('joined')
