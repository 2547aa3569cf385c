print('q')
quit()
