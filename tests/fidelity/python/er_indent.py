if True:
print('x')
