import atexit
atexit.register(print, 'from atexit')
print('main')
