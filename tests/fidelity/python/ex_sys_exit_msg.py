import sys
sys.stdout.write('out')
sys.exit('message to stderr')
