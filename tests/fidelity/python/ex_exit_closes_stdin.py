import sys
try:
    exit(0)
except SystemExit:
    print(sys.stdin.closed)
