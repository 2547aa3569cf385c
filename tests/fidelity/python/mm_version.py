import sys
print(sys.version_info[:2] >= (3, 11), sys.implementation.name)
