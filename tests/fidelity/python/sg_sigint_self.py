import os, signal
try:
    os.kill(os.getpid(), signal.SIGINT)
    import time
    time.sleep(1)
except KeyboardInterrupt:
    print('KeyboardInterrupt from SIGINT')
