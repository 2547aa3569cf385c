import sys
class D:
    def __del__(self):
        sys.exit(3)
d = D()
del d
print('after del')
