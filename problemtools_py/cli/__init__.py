"""Command-line entry points. Each command module only parses options, calls the library
and hands the results to a reporter.

- ``errorhandler.run_cli`` is the one handler. A ``FatalError`` prints its message,
  naming the file, and exits 2 (usage) or 1. Anything else is an internal error (3; the
  traceback with ``PROBLEMTOOLS_PY_DEBUG=1``). Ctrl-C exits 130 once every sandbox
  server is killed.
- Exit codes live in ``exitcodes.ExitCode``, one place.
- ``console.py`` runs a command's ``main`` and ends the process. Tests call ``main``.
- ``options.py``: what every command shares (option types, ``check_output``,
  ``packages_in``). ``reporters.py``: text (tables by ``plaintable.py``) or JSON."""

from __future__ import annotations
