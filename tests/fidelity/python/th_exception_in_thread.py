import threading
def bad():
    raise RuntimeError('in thread')
t = threading.Thread(target=bad)
t.start()
t.join()
print('main exits 0')
