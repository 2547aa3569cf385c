import threading
loc = threading.local()
loc.x = 1
def f():
    print(hasattr(loc, 'x'))
t = threading.Thread(target=f)
t.start()
t.join()
