from __future__ import annotations
def f(a: Undefined) -> None:
    pass
print(f.__annotations__)
