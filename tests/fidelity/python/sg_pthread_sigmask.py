import signal
print(sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
