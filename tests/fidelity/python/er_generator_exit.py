def g():
    try:
        yield 1
    finally:
        print('generator closed')
it = g()
print(next(it))
