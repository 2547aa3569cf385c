print(repr(help))
