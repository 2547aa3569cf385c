import string
print(string.ascii_lowercase[:5], string.digits)
