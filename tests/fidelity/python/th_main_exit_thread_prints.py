import threading, time, sys
def work():
    time.sleep(0.05)
    print('thread after sys.exit')
threading.Thread(target=work).start()
sys.exit(3)
