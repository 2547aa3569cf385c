data = open(0).read().split()
print(sum(int(x) for x in data[:5]))
