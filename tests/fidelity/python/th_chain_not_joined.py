import threading
def second():
    print('second')
def first():
    print('first')
    threading.Thread(target=second).start()
threading.Thread(target=first).start()
