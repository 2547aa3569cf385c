import sys
sys.stdin.buffer.read(3)
print(sys.stdin.buffer.tell() >= 3)
