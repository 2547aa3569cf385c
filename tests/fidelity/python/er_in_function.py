def a():
    b()
def b():
    raise IndexError('deep')
a()
