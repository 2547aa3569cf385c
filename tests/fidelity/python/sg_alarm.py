import signal
signal.signal(signal.SIGALRM, lambda *a: print('alarm'))
signal.setitimer(signal.ITIMER_REAL, 0.05)
signal.pause()
print('resumed')
