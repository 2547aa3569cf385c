class Stop(BaseException):
    pass
print('b')
raise Stop()
