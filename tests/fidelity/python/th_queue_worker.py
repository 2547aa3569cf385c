import threading, queue
q = queue.Queue()
def worker():
    while True:
        item = q.get()
        if item is None:
            break
        print('item', item)
t = threading.Thread(target=worker)
t.start()
for i in range(3):
    q.put(i)
q.put(None)
