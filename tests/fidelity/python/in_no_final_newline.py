print(repr(input()))
print(repr(input()))
