import sys, os
print(sys.stdin.fileno(), len(os.read(sys.stdin.fileno(), 1 << 20)) > 0)
