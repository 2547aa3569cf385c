exec('y = 5')
print(y)
