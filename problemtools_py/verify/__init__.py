"""verifyproblem's work apart from its command line (:mod:`.verifier`): the checks of each
part, then the package's validators on its data, its submissions on its tests, the time
limit and scoring. Programs run through :mod:`problemtools_py.judge`."""

from __future__ import annotations
