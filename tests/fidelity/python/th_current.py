import threading
print(threading.current_thread().name, threading.main_thread() is threading.current_thread(), threading.active_count())
