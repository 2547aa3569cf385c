class D:
    def __del__(self):
        print('del at exit')
d = D()
print('main')
