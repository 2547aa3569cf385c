import os
data = os.read(0, os.fstat(0).st_size)
print(len(data), data.split()[:2])
