def g():
    yield 1
    exit(2)
for x in g():
    print(x)
