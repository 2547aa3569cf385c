name = input('prompt> ')
print(len(name))
