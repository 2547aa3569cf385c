import builtins
saved = builtins.print
del builtins.print
try:
    print('x')
except NameError:
    saved('print was gone')
builtins.print = saved
