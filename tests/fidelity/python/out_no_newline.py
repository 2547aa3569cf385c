import sys
sys.stdout.write('no newline at end')
