print(repr(license))
