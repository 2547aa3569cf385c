kind, value = map(int, input().split())
print(value * value if kind == 1 else value + 1)
