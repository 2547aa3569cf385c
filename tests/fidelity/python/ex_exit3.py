print('before')
exit(3)
print('after')
