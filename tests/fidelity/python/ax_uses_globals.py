import atexit
result = []
atexit.register(lambda: print(sum(result)))
result.extend(range(10))
