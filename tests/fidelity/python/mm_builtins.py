import builtins
print(__builtins__ is builtins, type(__builtins__).__name__)
