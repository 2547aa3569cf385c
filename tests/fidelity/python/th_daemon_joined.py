import threading
out = []
t = threading.Thread(target=lambda: out.append(42), daemon=True)
t.start()
t.join()
print(out)
