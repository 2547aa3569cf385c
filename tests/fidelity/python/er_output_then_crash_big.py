import sys
sys.stdout.write('y' * 100000)
raise SystemError('late')
