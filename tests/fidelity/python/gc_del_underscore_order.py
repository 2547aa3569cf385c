class D:
    def __init__(self, n):
        self.n = n
    def __del__(self):
        print('del', self.n)
a = D('a')
_b = D('_b')
c = D('c')
