import sys, os
print(sys.path[0] == os.path.dirname(os.path.realpath(__file__)))
