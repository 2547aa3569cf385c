import sys
print(sys.getrecursionlimit())
