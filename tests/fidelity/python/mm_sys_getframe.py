import sys
f = sys._getframe()
print(f.f_back is None, f.f_code.co_name)
