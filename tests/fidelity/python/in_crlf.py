import sys
print(repr(sys.stdin.readline()))
print(repr(sys.stdin.buffer.read()))
