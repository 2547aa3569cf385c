import atexit, sys
atexit.register(print, 'atexit after sys.exit')
sys.exit(3)
