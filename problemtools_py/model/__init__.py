"""The problem model: a package directory loaded once into frozen dataclasses.

A rule of the format is decided here and asked for everywhere else:

- ``problem.settings(group)``: a group's settings, inherited (testdata.yaml or
  test_group.yaml).
- ``problem.input_validator_args(case, name)``, ``problem.output_validator_args(case)``:
  legacy ``*_flags`` or ``*_args``, with per-case overrides.
- ``problem.output_validator``: whether a custom output validator applies.
- ``problem.declared_time_limit`` and ``timelimit.time_limit``: the time limit's rules.
- ``submission.expectation``: directories, ``@EXPECTED_RESULT@`` tags, submissions.yaml.
- ``testdata``: the directories under ``data/`` (``DATA_DIRECTORIES``), the files a
  case may have (``CASE_FILES``), ``is_sample``, ``GroupKind`` and ``cases_in``.

``load_problem``, ``Problem`` and ``FormatVersion`` are imported on first use, so that a
module needing one small rule of the model (a sidecar's name) does not load it all."""

from __future__ import annotations

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

    from problemtools_py.model.loader import load_problem
    from problemtools_py.model.problem import FormatVersion, Problem

__all__ = ["FormatVersion", "Problem", "load_problem"]


def __getattr__(name: str) -> Any:
    if name == "load_problem":
        from problemtools_py.model.loader import load_problem

        return load_problem
    if name in ("Problem", "FormatVersion"):
        from problemtools_py.model import problem

        return getattr(problem, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
