import sys
print(sys.stdout.encoding, sys.stdout.errors, sys.stdout.line_buffering, sys.stdout.isatty(), sys.stdout.fileno(), sys.stdout.seekable())
print(sys.stderr.encoding, sys.stderr.errors, sys.stderr.line_buffering)
print(sys.stdin.encoding, sys.stdin.errors, sys.stdin.isatty())
