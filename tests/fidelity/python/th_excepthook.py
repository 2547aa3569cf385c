import threading
threading.excepthook = lambda a: print('hooked', a.exc_type.__name__)
t = threading.Thread(target=lambda: 1 / 0)
t.start()
t.join()
