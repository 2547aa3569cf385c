import os, stat
print(stat.S_ISFIFO(os.fstat(1).st_mode))
