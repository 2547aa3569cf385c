class C:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        print('exit', a[0].__name__)
with C():
    exit(2)
