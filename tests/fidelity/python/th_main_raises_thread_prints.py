import threading, time
def work():
    time.sleep(0.05)
    print('thread still prints')
threading.Thread(target=work).start()
raise ValueError('main failed')
