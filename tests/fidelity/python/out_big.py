import sys
sys.stdout.write('x' * 300000 + '\n')
print(len('y' * 7))
