import os, sys
print('kept')
sys.stdout.flush()
os._exit(3)
