"""Command-line entry points. Each command module only parses options, calls the library
and hands the results to a reporter; :mod:`.errorhandler` decides exit codes."""

from __future__ import annotations
