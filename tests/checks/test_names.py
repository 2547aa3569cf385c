"""Name rules, checked against their definitions in the format text with Hypothesis, and
end to end on real files in a package."""

from __future__ import annotations

import shutil
import string
import tempfile
from pathlib import Path

from conftest import SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.checks.layout import SHORT_NAME, file_names, name_ok
from problemtools_py.model import load_problem

ALNUM = set(string.ascii_letters + string.digits)
NAME_CHARS = string.ascii_letters + string.digits + "_.-" + " é+~"
names = st.text(alphabet=NAME_CHARS, min_size=1, max_size=12)


def seed_rule(name: str) -> bool:
    """The seed: length >= 2; letters, digits, period, dash, underscore; not beginning or
    ending with period, dash or underscore."""
    return (
        len(name) >= 2
        and all(c in ALNUM or c in "_.-" for c in name)
        and name[0] in ALNUM
        and name[-1] in ALNUM
    )


def modern_dir_rule(name: str) -> bool:
    """2023-07 directories: as files but without periods, and one character is enough."""
    if len(name) == 1:
        return name in ALNUM
    return "." not in name and seed_rule(name) and len(name) <= 255


@given(names)
def test_legacy_pattern_is_the_seed_rule(name: str) -> None:
    assert name_ok(name, False, False, "x") == seed_rule(name)
    assert name_ok(name, True, False, "x") == seed_rule(name)


@given(names)
def test_modern_patterns(name: str) -> None:
    assert name_ok(name, False, True, "submissions/x") == (seed_rule(name) and len(name) <= 255)
    assert name_ok(name, True, True, "submissions/x") == modern_dir_rule(name)


@given(st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=10))
def test_short_name_rule(name: str) -> None:
    expected = all(c in string.ascii_lowercase + string.digits for c in name)
    assert bool(SHORT_NAME.match(name)) == expected


def test_modern_case_files_directories_may_have_a_period() -> None:
    assert name_ok("01-small.files", True, True, "data/secret/01-small.files")
    assert not name_ok("g.1", True, True, "submissions/g.1")


@given(names.filter(lambda n: n not in (".", "..")))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_file_name_check_end_to_end(name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "hello"
        shutil.copytree(SAMPLES / "hello", root)
        (root / "data" / "secret" / name).write_text("x\n")
        problem = load_problem(root)
        flagged = [f for f in file_names(problem) if f.path == f"data/secret/{name}"]
        exempt = name in (".gitignore", ".gitattributes", ".git")
        assert bool(flagged) == (not seed_rule(name) and not exempt), flagged
