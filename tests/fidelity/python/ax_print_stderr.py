import atexit, sys
atexit.register(lambda: sys.stderr.write('err at exit\n'))
print('ok')
