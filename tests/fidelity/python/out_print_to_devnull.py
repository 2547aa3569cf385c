import os
with open(os.devnull, 'w') as f:
    print('gone', file=f)
print('kept')
