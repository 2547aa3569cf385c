import threading
threading._register_atexit(lambda: print('threading atexit'))
print('main')
