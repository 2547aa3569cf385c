import atexit
def h():
    print('should not run')
atexit.register(h)
atexit.unregister(h)
print('unregistered')
