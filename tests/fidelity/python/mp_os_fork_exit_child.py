import os, sys
pid = os.fork()
if pid == 0:
    print('child exits via sys.exit')
    sys.exit(0)
_, status = os.waitpid(pid, 0)
print('parent sees', os.waitstatus_to_exitcode(status))
