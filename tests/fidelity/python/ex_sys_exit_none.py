import sys
sys.exit(None)
