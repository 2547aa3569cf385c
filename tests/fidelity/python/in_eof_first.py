import sys
sys.stdin.read()
try:
    input()
except EOFError as e:
    print('EOF', repr(str(e)))
