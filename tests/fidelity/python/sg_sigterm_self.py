import os, signal
print('dying', flush=True)
os.kill(os.getpid(), signal.SIGTERM)
