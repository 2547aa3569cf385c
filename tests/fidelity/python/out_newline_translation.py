import sys
sys.stdout.write('a\r\nb\rc\n')
