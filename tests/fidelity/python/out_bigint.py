x = 3 ** 2000
print(len(str(x)), x % 1000007)
