import os
print('before fork')
pid = os.fork()
if pid == 0:
    print('child')
    os._exit(0)
os.waitpid(pid, 0)
print('parent')
