try:
    raise KeyboardInterrupt
except KeyboardInterrupt:
    print('caught ctrl-c')
