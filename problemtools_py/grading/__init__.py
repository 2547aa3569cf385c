"""Grading model-written programs with the dataset's exact reward."""

from __future__ import annotations

from problemtools_py.grading.extract import extract_code
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import GradeResult

__all__ = ["GradeResult", "Grader", "extract_code"]
