import atexit, threading
t = threading.Thread(target=lambda: atexit.register(print, 'from a thread'))
t.start()
t.join()
