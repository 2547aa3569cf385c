import sys
print('s')
sys.exit(5)
