"""The competitive-code-curated dataset: problem ids, the file schema, and streaming,
row-group-at-a-time reading and writing of its parquet files."""

from __future__ import annotations

from problemtools_py.dataset.ids import PROBLEM_ID_RULE, normalize_v1, problem_id, share
from problemtools_py.dataset.reader import Dataset, DatasetProblem, ProblemInfo

__all__ = [
    "PROBLEM_ID_RULE",
    "Dataset",
    "DatasetProblem",
    "ProblemInfo",
    "normalize_v1",
    "problem_id",
    "share",
]
