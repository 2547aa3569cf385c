print(repr(exit), repr(quit))
print(str(exit))
