print('\n'.join(map(str, range(20000))))
