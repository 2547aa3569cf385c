import sys
r = sys.stdin.readline
n, m = map(int, r().split())
grid = [list(map(int, r().split())) for _ in range(1)]
print(n + m, grid)
