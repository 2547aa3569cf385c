import _thread, time
_thread.start_new_thread(lambda: (time.sleep(0.5), print('raw thread, not waited for')), ())
print('main')
