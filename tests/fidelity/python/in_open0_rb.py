data = open(0, 'rb').read()
print(len(data), data.count(b'\n'))
