import signal
signal.signal(signal.SIGUSR1, lambda s, f: print('got', signal.Signals(s).name))
signal.raise_signal(signal.SIGUSR1)
print('after')
