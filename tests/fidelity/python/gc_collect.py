import gc
class N:
    pass
a, b = N(), N()
a.b, b.a = b, a
del a, b
print(gc.collect() >= 2, gc.isenabled())
