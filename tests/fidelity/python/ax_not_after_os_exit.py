import atexit, os, sys
atexit.register(print, 'never')
print('x')
sys.stdout.flush()
os._exit(0)
