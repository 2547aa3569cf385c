import sys
print('then closed')
sys.stdout.close()
