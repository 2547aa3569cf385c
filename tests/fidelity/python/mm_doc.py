'''The module docstring.'''
print(__doc__)
