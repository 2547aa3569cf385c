"""``verifyproblem`` (and ``verifyproblem-hook``, for pre-commit) apart from its command
line.

``verifier.verify_all`` loads each package and runs the checks of the asked parts. Then
the running parts go through a ``context.Context``: a judging session whose policy is
verifyproblem's ``options.Options``. The checks run in a thread beside them, and their
findings are put back in the parts' order.

- ``selection.py``: a ``-s`` or ``-d`` filter that matches nothing.
- ``inputs.py``: input validators on the data (their runs: ``judging.validators``).
- ``submissions.py``: every submission on every case, TLE runs first.
- ``ahead.py``: every submission's first round, started with the verification.
- ``claims.py``: did each submission get what it claims.

Another judge's rules are findings carrying its name (``model.conventions``). The result
is a ``ProblemReport``: findings and a ``SubmissionRow`` per submission."""

from __future__ import annotations
