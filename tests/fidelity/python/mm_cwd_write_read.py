with open('scratch.txt', 'w') as f:
    f.write('kept')
print(open('scratch.txt').read())
