import sys
del sys.excepthook
raise ValueError('no hook')
