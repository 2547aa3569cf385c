import sys
def hook(*a):
    raise RuntimeError('hook broke')
sys.excepthook = hook
raise ValueError('original')
