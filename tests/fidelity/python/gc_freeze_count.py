import gc
gc.freeze()
print(gc.get_freeze_count() > 0)
