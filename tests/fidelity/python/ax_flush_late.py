import atexit, sys
atexit.register(lambda: sys.stdout.write('no newline, flushed at shutdown'))
