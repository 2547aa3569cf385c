import threading
def t():
    exit(3)
th = threading.Thread(target=t)
th.start()
th.join()
print('main goes on')
