"""The judges whose conventions a package may follow beyond the format's text, and how a
finding names one. A package made for DOMjudge (``validation: custom multi-pass``, its
validator in ``output_validator/`` in a legacy package, ``problem.pdf`` alone,
``@EXPECTED_SCORE@``) is verified by the format's text unless ``--judge`` names the
judge: its extensions are then warnings, and it judges as that
judge does (see docs/format.md, "Other judges' conventions")."""

from __future__ import annotations

from dataclasses import replace

from problemtools_py.findings import Finding, Severity
from problemtools_py.model.groups import words
from problemtools_py.rulesets import Ruleset

TYPE_CHECKING = False  # (-p config imports this module: typing only for the checker)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def extension(
    judge: Ruleset | tuple[Ruleset, ...],
    check: str,
    message: str,
    path: str | None = None,
    line: int | None = None,
) -> Finding:
    """An error the format's text demands, named as the extension of ``judge`` (or of
    each of several judges, "domjudge,bapctools") it is: a warning with ``--judge`` one
    of them (see :func:`as_judged`)."""
    judges = judge if isinstance(judge, tuple) else (judge,)
    named = ",".join(j.value for j in judges)
    return Finding(Severity.ERROR, check, message, path, line, named)


def as_judged(finding: Finding, judge: Ruleset) -> Finding:
    """``finding`` when verifying by ``judge``'s rules: another judge's extension says
    which judge accepts it; the judge's own is a warning."""
    if finding.convention is None:
        return finding
    named = [Ruleset(value) for value in finding.convention.split(",")]
    if judge in named:
        note = f" ({judge.possessive} extension)"
        return replace(finding, severity=Severity.WARNING, message=finding.message + note)
    who = " and ".join(j.display for j in named)
    flags = " or ".join(f"--judge {j.value}" for j in named)
    verb = "accepts" if len(named) == 1 else "accept"
    note = f" ({who} {verb} this: {flags} verifies as it judges)"
    return replace(finding, message=finding.message + note)


# legacy problem.yaml ``validation:`` words DOMjudge reads beyond the text's
# (custom, score, interactive): it judges "custom multi-pass" with limits.validation_passes
DOMJUDGE_VALIDATION_WORDS = frozenset({"multi-pass"})


def answer_validator_args(settings: Mapping[str, Any], own: object) -> list[str]:
    """BAPCtools' answer validators' arguments on a test case: ``answer_validator_args``
    of its group's settings (``settings``: inherited), which the case's own yaml
    (``own``) overrides; bt gives them after the input, as an output validator gets its
    ``output_validator_args`` (BAPCtools' key, not the format's)."""
    args = words(settings.get("answer_validator_args"))
    if isinstance(own, dict) and own.get("answer_validator_args") is not None:
        args = words(own["answer_validator_args"])
    return args
