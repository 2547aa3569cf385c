import sys
sys.stdin.close()
print('closed stdin')
