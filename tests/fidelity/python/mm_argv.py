import sys, os
print(len(sys.argv), os.path.basename(sys.argv[0]), sys.argv[0] == __file__)
