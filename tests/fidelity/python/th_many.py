import threading
res = [0] * 8
def w(i):
    res[i] = sum(range(i * 1000))
ts = [threading.Thread(target=w, args=(i,)) for i in range(8)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(res)
