import __main__
print(__main__.__name__, hasattr(__main__, 'x'))
x = 1
print(hasattr(__main__, 'x'))
