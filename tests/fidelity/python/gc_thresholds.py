import gc
print(gc.get_threshold())
