import threading, time
def work():
    time.sleep(0.05)
    print('late output from a thread')
threading.Thread(target=work).start()
print('main done')
