import sys
print(sys.flags.optimize, sys.flags.dont_write_bytecode, __debug__)
