import builtins
print([n for n in ('exit', 'quit', 'help', 'copyright', 'credits', 'license') if hasattr(builtins, n)])
