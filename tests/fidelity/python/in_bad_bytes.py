import sys
s = sys.stdin.read()
print(len(s), ascii(s[-4:]))
sys.stdout.write(s[-3:])
