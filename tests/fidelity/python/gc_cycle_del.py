class C:
    def __init__(self, name):
        self.name = name
        self.me = self
    def __del__(self):
        print('del', self.name)
c = C('cyclic')
