import sys
print(sys.modules['__main__'].__dict__ is globals())
