import ctypes

libc = ctypes.CDLL(None)
libc.printf(b"from C's printf: %d\n", 42)
print("from Python:", input())
libc.puts(b"from C's puts")
