import os, signal, sys
print('killed', flush=True)
os.kill(os.getpid(), signal.SIGKILL)
