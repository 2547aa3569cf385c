import sys
print('to stderr', file=sys.stderr)
