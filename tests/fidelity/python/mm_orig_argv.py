import sys, os
print(len(sys.orig_argv), os.path.basename(sys.orig_argv[-1]))
