import atexit
atexit.register(lambda: print('__file__' in globals()))
