import sys
sys.stdout.buffer.write(b'raw bytes\n')
