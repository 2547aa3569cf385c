try:
    int('x')
except ValueError:
    print(undefined)
