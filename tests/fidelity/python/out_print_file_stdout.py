import sys
print('explicit', file=sys.stdout)
print('dunder', file=sys.__stdout__)
