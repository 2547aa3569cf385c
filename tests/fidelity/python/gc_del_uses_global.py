import sys
class D:
    def __del__(self):
        sys.stdout.write('del sees sys\n')
d = D()
