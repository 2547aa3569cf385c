import os
print('lost to a pipe')
os._exit(0)
