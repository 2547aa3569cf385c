import threading
e = threading.Event()
def f():
    e.wait()
    print('released')
threading.Thread(target=f).start()
print('setting')
e.set()
