"""The one fatal error type. Raised for conditions that stop a command; the CLI's
top-level handler turns it into a clear message and exit code, never a traceback."""

from __future__ import annotations

from pathlib import Path

from problemtools_py.findings import ExitCode


class FatalError(Exception):
    """A problem that stops the command: bad arguments, unreadable input, broken install."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        exit_code: ExitCode = ExitCode.USAGE,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.exit_code = exit_code

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        return where + self.message
