import sys
print('text first')
sys.stdout.buffer.write(b'bytes second\n')
print('text third')
