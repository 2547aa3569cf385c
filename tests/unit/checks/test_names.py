"""Name rules, checked against the words of each version's text (spec repository at
b03c6a2) with Hypothesis, and end to end on real files in a package."""

from __future__ import annotations

import shutil
import string
import tempfile
from pathlib import Path

from helpers.packages import SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.checks.layout import SHORT_NAME, file_names
from problemtools_py.model import load_problem
from problemtools_py.model.names import name_rule
from problemtools_py.model.problem import FormatVersion

ALNUM = set(string.ascii_letters + string.digits)
NAME_CHARS = string.ascii_letters + string.digits + "_.-" + " é+~"
names = st.text(alphabet=NAME_CHARS, min_size=1, max_size=12)
EXEMPT = (".gitignore", ".gitattributes", ".git")


def current_rule(name: str) -> bool:
    """legacy.md and 2025-09.md: "of length at least 1, at most 255, consist solely of
    lower- or uppercase letters a-z, A-Z, digits 0-9, period, dash, or underscore, but must
    not begin with a dash or period"."""
    return (1 <= len(name) <= 255 and all(c in ALNUM or c in "_.-" for c in name)
            and name[0] not in ".-")  # fmt: skip


def icpc_rule(name: str) -> bool:
    """legacy-icpc.md: "of length at least 2, at most 255, ... but must not begin or end
    with a period, dash, or underscore"."""
    return (2 <= len(name) <= 255 and all(c in ALNUM or c in "_.-" for c in name)
            and name[0] in ALNUM and name[-1] in ALNUM)  # fmt: skip


@given(names)
def test_each_version_has_the_rule_its_text_gives(name: str) -> None:
    for fmt, declared in ((FormatVersion.LEGACY, None), (FormatVersion.LEGACY, "legacy"),
                          (FormatVersion.V2023_07, "2023-07-draft"),
                          (FormatVersion.V2025_09, "2025-09")):  # fmt: skip
        rule = name_rule(fmt, declared)
        assert rule.auxiliary and rule.allows(name) == current_rule(name)
    icpc = name_rule(FormatVersion.LEGACY, "legacy-icpc")
    assert not icpc.auxiliary and icpc.allows(name) == icpc_rule(name)
    assert icpc.allows(name, is_dir=True)  # ("All file names for files")


@given(st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=10))
def test_short_name_rule(name: str) -> None:
    expected = all(c in string.ascii_lowercase + string.digits for c in name)
    assert bool(SHORT_NAME.match(name)) == expected


def _package_with(name: str, declared: str | None) -> Path:
    root = Path(tempfile.mkdtemp()) / "hello"
    shutil.copytree(SAMPLES / "hello", root)
    if declared is not None:
        with (root / "problem.yaml").open("a") as yaml:
            yaml.write(f"problem_format_version: {declared}\n")
    (root / "data" / "secret" / name).write_text("x\n")
    return root


@given(names.filter(lambda n: n not in (".", "..")))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_legacy_package_reads_other_names_as_auxiliary(name: str) -> None:
    """.gitkeep, .envrc, one-character names: no error; a name the text does not allow is
    left out of the package as read, never an error."""
    root = _package_with(name, None)
    try:
        problem = load_problem(root)
        rel = f"data/secret/{name}"
        assert not list(file_names(problem))
        assert (problem.file(rel) is not None) == current_rule(name)
        assert (rel in problem.auxiliary) == (not current_rule(name) and name not in EXEMPT[2:])
    finally:
        shutil.rmtree(root.parent)


@given(names.filter(lambda n: n not in (".", "..")))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_legacy_icpc_package_keeps_the_stricter_rule(name: str) -> None:
    root = _package_with(name, "legacy-icpc")
    try:
        problem = load_problem(root)
        flagged = [f for f in file_names(problem) if f.path == f"data/secret/{name}"]
        assert bool(flagged) == (not icpc_rule(name) and name not in EXEMPT), flagged
    finally:
        shutil.rmtree(root.parent)
