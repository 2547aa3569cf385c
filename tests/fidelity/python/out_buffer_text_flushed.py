import sys
print('text first')
sys.stdout.flush()
sys.stdout.buffer.write(b'bytes second\n')
