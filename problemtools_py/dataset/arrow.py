"""pyarrow for the commands' own processes, without numpy. A command either imports it
so at once (:func:`import_without_numpy`), or asks for it (:func:`without_numpy`) when
the first import comes later, through the dataset reader's ``from ...arrow import pq``
(a grader starts its sandboxes before it opens the dataset: pyarrow's import overlaps)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow.parquet as pq

__all__ = ["import_without_numpy", "pq", "without_numpy"]
_WANTED = [False]


def without_numpy() -> None:
    """This process is a command's own: its pyarrow is to be imported without numpy."""
    _WANTED[0] = True


def __getattr__(name: str) -> Any:
    if name != "pq":
        raise AttributeError(name)
    if _WANTED[0]:
        import_without_numpy()
    import pyarrow.parquet

    return pyarrow.parquet


def import_without_numpy() -> None:
    """Import pyarrow and its Parquet module with numpy kept out, unless something has
    imported either already. Reading and writing the dataset as Python values never needs
    numpy, yet pyarrow imports it when it can: 70 ms of its 150 ms, and OpenBLAS starts a
    thread per core that spins beside the graders. Only for a command's own process (a
    library caller's pyarrow keeps numpy): numpy imports normally afterwards, but this
    pyarrow will not convert to it."""
    if "numpy" in sys.modules or "pyarrow" in sys.modules:
        return
    modules: dict[str, Any] = sys.modules
    modules["numpy"] = None  # (then import numpy raises ImportError)
    try:
        import pyarrow.parquet  # noqa: F401
    finally:
        del sys.modules["numpy"]
