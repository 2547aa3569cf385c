print(list(globals()))
