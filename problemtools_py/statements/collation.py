"""plasTeX's index support (``plasTeX.Base.LaTeX.Index``) reads the Unicode collation
table (``allkeys.txt``, 1.2 MB) as its module is imported, to sort index entries: 70-90 ms
of CPU in every process that imports plasTeX, on the way to every statement's HTML, while
a problem statement has no index. :func:`defer` (called before plasTeX is imported) loads
plasTeX's collator module with a ``Collator`` that reads its table at its first sort key
instead: the same keys, paid for only by a document that sorts an index."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from typing import Any

MODULE = "plasTeX.Base.LaTeX.pyuca"


def defer() -> None:
    """Install the deferred collator, once, unless plasTeX's index module is loaded already
    or plasTeX is not laid out as 3.x is (then nothing changes: it reads its table)."""
    if MODULE in sys.modules or "plasTeX.Base" in sys.modules:
        return
    try:
        spec = importlib.util.find_spec("plasTeX")
    except (ImportError, ValueError):
        return
    if spec is None or spec.origin is None:
        return
    path = Path(spec.origin).parent / "Base" / "LaTeX" / "pyuca.py"
    found = importlib.util.spec_from_file_location(MODULE, path)
    if not path.is_file() or found is None or found.loader is None:
        return
    module = importlib.util.module_from_spec(found)
    try:
        found.loader.exec_module(module)
    except Exception:  # (a plasTeX of another make: it is left to import its own)
        return
    table_reader = getattr(module, "Collator", None)
    if not isinstance(table_reader, type):
        return
    vars(module)["Collator"] = deferred(table_reader)
    sys.modules[MODULE] = module


def deferred(collator: Any) -> type:
    """A subclass of pyuca's ``collator`` whose table is read at its first sort key."""

    def __init__(self: Any, filename: str) -> None:  # (the table is read later)
        self._filename = filename
        self._lock = threading.Lock()
        self.loaded = False

    def sort_key(self: Any, string: str) -> Any:
        if not self.loaded:
            with self._lock:
                if not self.loaded:
                    collator.__init__(self, self._filename)
                    self.loaded = True
        return collator.sort_key(self, string)

    methods = {"__init__": __init__, "sort_key": sort_key, "__module__": __name__}
    return type(collator.__name__, (collator,), methods)
