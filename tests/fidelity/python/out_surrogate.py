print('\udcff\udcfe')
