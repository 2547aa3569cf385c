exit = 5
print(exit + 1)
