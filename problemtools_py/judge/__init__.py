"""The judging rules on top of :mod:`problemtools_py.sandbox`: compiling (languages, the
build cache), running a built program, judging one test case (interactive, multi-pass),
output validators, comparators and graders. Every program run here is treated as hostile."""

from __future__ import annotations
