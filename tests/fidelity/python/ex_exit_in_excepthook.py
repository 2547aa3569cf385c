import sys
def hook(*a):
    print('hook', a[0].__name__)
    sys.exit(8)
sys.excepthook = hook
raise ValueError('x')
