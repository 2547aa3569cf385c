import builtins
print(hasattr(builtins, 'exit'), type(builtins.quit).__name__)
builtins.exit(0)
