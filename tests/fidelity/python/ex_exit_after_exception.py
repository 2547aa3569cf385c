try:
    1 / 0
except ZeroDivisionError:
    print('handled')
    exit(0)
