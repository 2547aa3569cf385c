def f():
    return f()
print('start')
f()
