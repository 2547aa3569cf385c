import os, stat
print(stat.S_ISREG(os.fstat(0).st_mode), os.fstat(0).st_size > 0)
