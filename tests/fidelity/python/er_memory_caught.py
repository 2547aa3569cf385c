try:
    x = [0] * (1 << 62)
except (MemoryError, OverflowError) as e:
    print('caught', type(e).__name__)
