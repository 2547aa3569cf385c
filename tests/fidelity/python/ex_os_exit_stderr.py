import os, sys
sys.stderr.write('err line\n')
os._exit(1)
