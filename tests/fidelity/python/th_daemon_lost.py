import threading, time
def work():
    time.sleep(5)
    print('never')
threading.Thread(target=work, daemon=True).start()
print('main only')
