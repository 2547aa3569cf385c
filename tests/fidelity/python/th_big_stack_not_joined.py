import sys, threading
sys.setrecursionlimit(1 << 20)
threading.stack_size(1 << 27)
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
def main():
    print(depth(200000))
threading.Thread(target=main).start()
