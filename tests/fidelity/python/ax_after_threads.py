import atexit, threading, time
atexit.register(print, 'atexit last')
def w():
    time.sleep(0.05)
    print('thread first')
threading.Thread(target=w).start()
