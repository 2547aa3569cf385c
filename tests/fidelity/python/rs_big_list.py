x = list(range(3 * 10 ** 6))
print(sum(x))
