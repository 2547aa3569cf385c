import subprocess, sys
r = subprocess.run([sys.executable, '-c', 'print(6 * 7)'], capture_output=True, text=True)
print(r.stdout.strip(), r.returncode)
