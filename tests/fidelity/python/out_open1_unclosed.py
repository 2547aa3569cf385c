out = open(1, 'w')
out.write('written, never closed\n')
