import subprocess
print('python first')
subprocess.run(['echo', 'echo second'])
print('python third')
