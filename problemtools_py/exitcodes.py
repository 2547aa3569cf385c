"""The process exit codes, in one place (findings re-exports them): a module of its own,
so that the console scripts can exit with the right one before any other is imported."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    CLEAN = 0
    FINDINGS = 1
    USAGE = 2
    INTERNAL = 3
    INTERRUPTED = 130
