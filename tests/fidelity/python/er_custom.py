class MyError(Exception):
    pass
raise MyError('custom')
