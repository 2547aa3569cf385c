import gc
gc.disable()
print(gc.isenabled())
x = [[i] for i in range(10000)]
print(len(x))
