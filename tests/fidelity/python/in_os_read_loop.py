import os
chunks = []
while True:
    c = os.read(0, 7)
    if not c:
        break
    chunks.append(c)
print(len(b''.join(chunks)))
