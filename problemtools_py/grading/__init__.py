"""Grading model-written programs with the dataset's exact reward (``gradecode``).

- ``grader.Grader``: a completion's programs run on a problem's tests in order, in a
  sandbox's open session (``sessions.py``, ``testrun.py``); the first failure decides.
- ``extract.py`` (which text is the program), ``syntax.py`` (does it compile, asked of a
  helper process), ``compiled.py`` (other languages), ``callbased.py`` (call-based tests).
- ``problems.py``: a dataset, or packages converted as kattis2parquet would.
  ``own_judge.py``: problems the comparator cannot judge, judged by their own judge.
- ``shapes.py`` and ``rewardargs.py``: what a trainer's rows and arguments mean;
  ``preflight.py`` checks them before training (``gradecode --check``).
- ``rewardhost.py``: one grader for a process's forks (verl's PRIME pool).
- ``service/``: ``gradeserver`` (HTTP). ``cluster/``: grading on a Ray cluster.

The trainers' faces are ``rewards`` (verl), ``rewards_trl`` and ``verifiers_env``."""

from __future__ import annotations

from problemtools_py.grading.extract import extract_code
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import GradeResult

__all__ = ["GradeResult", "Grader", "extract_code"]
