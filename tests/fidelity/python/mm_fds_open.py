import os
print(sorted(int(x) for x in os.listdir('/proc/self/fd'))[:3])
