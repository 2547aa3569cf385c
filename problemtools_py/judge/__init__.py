"""Everything that executes code: the sandbox, languages, comparators, validators and
graders. Every program run here is treated as hostile."""

from __future__ import annotations
