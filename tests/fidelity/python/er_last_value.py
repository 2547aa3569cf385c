import atexit, sys
atexit.register(lambda: print('last:', type(getattr(sys, 'last_value', None)).__name__))
raise LookupError('x')
