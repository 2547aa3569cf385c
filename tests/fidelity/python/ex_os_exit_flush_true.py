import os
print('kept', flush=True)
os._exit(0)
