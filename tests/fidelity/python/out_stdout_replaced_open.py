import sys
sys.stdout = open(1, 'w', buffering=1 << 16, closefd=False)
print('through my own stdout')
