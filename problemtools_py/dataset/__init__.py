"""The competitive-code-curated dataset (``kattis2parquet``, ``parquet2kattis``): problem
ids, the file schema, and streaming, row-group-at-a-time reading and writing of its
parquet files.

The reader (and so pyarrow) is imported on first use of its names, so that a command's
``--help`` and the id rules start at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from problemtools_py.dataset.ids import PROBLEM_ID_RULE, normalize_v1, problem_id, share
from problemtools_py.dataset.splits import SPLITS

if TYPE_CHECKING:
    from problemtools_py.dataset.reader import Dataset, DatasetProblem, ProblemInfo


__all__ = [
    "PROBLEM_ID_RULE",
    "SPLITS",
    "Dataset",
    "DatasetProblem",
    "ProblemInfo",
    "normalize_v1",
    "problem_id",
    "share",
]
_READER = ("Dataset", "DatasetProblem", "ProblemInfo")


def __getattr__(name: str) -> Any:
    if name in _READER:
        from problemtools_py.dataset import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
