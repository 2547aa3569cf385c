import sys
w = sys.stdout.write
for i in range(5):
    w(str(i) + ' ')
w('\n')
