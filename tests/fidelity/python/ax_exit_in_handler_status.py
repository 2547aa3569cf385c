import atexit
atexit.register(exit, 5)
print('m')
