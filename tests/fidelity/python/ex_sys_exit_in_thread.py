import sys, threading
def t():
    print('thread')
    sys.exit(2)
threading.Thread(target=t).start()
print('main')
