"""``typing.NamedTuple`` for the modules a lean init imports (see :mod:`.zygote`), without
importing ``typing``: with the ``re`` and ``contextlib`` it loads, 9 ms of CPU at the start
of every init, one per program a verification runs on many tests. mypy reads typing's.

A subclass gets its fields (with their defaults) from its annotations, in order, and
keeps its methods and docstring, as with typing's; it is a ``collections.namedtuple``."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from collections import namedtuple

    _CLASS_KEYS = ("__module__", "__qualname__", "__annotations__", "__dict__", "__weakref__")

    class _Maker(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # (NamedTuple itself)
                return super().__new__(mcls, name, bases, namespace)
            fields = list(namespace.get("__annotations__", {}))
            defaults = [namespace[field] for field in fields if field in namespace]
            made = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            made.__qualname__ = namespace.get("__qualname__", name)
            for key, value in namespace.items():
                if key not in fields and key not in _CLASS_KEYS:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_Maker):
        """Subclass it as typing.NamedTuple."""
