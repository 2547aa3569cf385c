"""Running a problem package: its validators on its data, its submissions on its tests,
the time limit, and grading. Everything executes through :mod:`problemtools_py.judge`."""

from __future__ import annotations
