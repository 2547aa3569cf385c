try:
    print('try')
    exit(4)
finally:
    print('finally')
