import atexit
def bad():
    raise ValueError('in atexit')
atexit.register(bad)
atexit.register(print, 'runs first')
print('main')
