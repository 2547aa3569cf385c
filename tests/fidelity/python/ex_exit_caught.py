try:
    exit(9)
except SystemExit as e:
    print('caught', e.code)
print('goes on')
