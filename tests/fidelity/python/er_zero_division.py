print('partial output')
print(1 / 0)
