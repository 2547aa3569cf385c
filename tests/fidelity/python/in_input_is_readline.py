import sys
input = sys.stdin.readline
a, b = map(int, input().split())
xs = list(map(int, input().split()))
print(a, b, sum(xs))
