print('a\tb  c ')
