import atexit
@atexit.register
def bye():
    print('bye')
print('hi')
