import sys
print('one')
sys.__stdout__.write('two\n')
print('three')
