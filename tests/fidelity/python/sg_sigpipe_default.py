import signal
print(int(signal.getsignal(signal.SIGPIPE)))
