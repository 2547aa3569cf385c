import atexit
atexit.register(print, 'atexit after a crash')
print('before')
1 / 0
