x = 1
print('x' in vars(), 'x' in locals(), locals() is globals())
