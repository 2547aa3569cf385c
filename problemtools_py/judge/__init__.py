"""The judging rules on top of :mod:`problemtools_py.sandbox`. Every program run here is
treated as hostile.

- ``compile.py``: languages from ``languages.yaml``, builds cached by content
  (``buildcache.py`` bounds the cache; ``javacds.py`` and ``pch.py`` make javac's
  class-data archive and g++'s precompiled headers once per machine).
- ``execute.run_program``: a built program in a sandbox.
- ``judging.CaseJudge``: one program on one test case (plain, interactive, multi-pass),
  then the output validator.
- ``held.py``: jails kept open for one program's runs on many cases.
- ``validators.py``, ``graders.py`` (legacy grader programs, 2023-07 aggregation),
  ``comparators.py`` and ``dataset_rule.py`` (the dataset's comparator)."""

from __future__ import annotations
