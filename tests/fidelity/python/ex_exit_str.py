print('partial')
exit('fatal: bad input')
