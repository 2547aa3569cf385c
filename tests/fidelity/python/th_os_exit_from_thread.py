import threading, os, sys
def work():
    sys.stdout.flush()
    os._exit(5)
print('main', flush=True)
t = threading.Thread(target=work)
t.start()
t.join()
print('never')
