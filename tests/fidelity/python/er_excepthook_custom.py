import sys
sys.excepthook = lambda t, v, tb: print('custom hook:', t.__name__, v)
print('x')
raise KeyError('k')
