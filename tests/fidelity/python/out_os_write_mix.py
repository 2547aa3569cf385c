import os
print('buffered')
os.write(1, b'direct\n')
