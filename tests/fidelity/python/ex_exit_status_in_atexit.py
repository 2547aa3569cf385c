import atexit, sys
atexit.register(lambda: sys.exit(4))
print('main')
