import atexit
for i in range(3):
    atexit.register(print, 'handler', i)
