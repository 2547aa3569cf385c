import sys, os
print(os.path.basename(sys.executable).startswith('python3'))
