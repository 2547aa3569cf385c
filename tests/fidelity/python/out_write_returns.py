import sys
n = sys.stdout.write('abc\n')
print(n)
