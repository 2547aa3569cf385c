import sys
print(sys.stdout.write_through, sys.stderr.write_through)
