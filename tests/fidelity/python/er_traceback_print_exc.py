import traceback
try:
    [][1]
except IndexError:
    traceback.print_exc()
    print('printed')
