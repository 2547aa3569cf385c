import signal
print(signal.getsignal(signal.SIGINT) is signal.default_int_handler, signal.getsignal(signal.SIGPIPE), signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGXFSZ))
