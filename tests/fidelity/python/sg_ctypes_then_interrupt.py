import ctypes
import os
import signal

libc = ctypes.CDLL(None)
libc.printf(b"buffered in C, flushed before SIGINT ends it\n")
print("from Python")
os.kill(os.getpid(), signal.SIGINT)
