import weakref
class A:
    pass
a = A()
weakref.finalize(a, print, 'finalized at exit')
print('main')
