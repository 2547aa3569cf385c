"""YAML reading with line marks, and Hypothesis-driven type errors in problem.yaml."""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.checks.schema import validate
from problemtools_py.yamlfile import load_yaml, parse_yaml

P = Path("problem.yaml")


def test_lines_of_nested_keys_and_list_items() -> None:
    doc = parse_yaml("a: 1\nlimits:\n  memory: 5\n  time: [1,\n    2]\n", P, "problem.yaml")
    assert doc.line_of(("a",)) == 1
    assert doc.line_of(("limits", "memory")) == 3
    assert doc.line_of(("limits", "time", 1)) == 5
    assert doc.line_of(("limits", "nothing", "deeper")) == 2  # nearest known prefix


def test_timestamps_stay_strings() -> None:
    doc = parse_yaml("embargo_until: 2025-01-31\nwhen: 2025-01-31T10:00:00Z\n", P, "p")
    assert doc.data == {"embargo_until": "2025-01-31", "when": "2025-01-31T10:00:00Z"}


def test_duplicate_keys_are_reported_with_their_line() -> None:
    doc = parse_yaml("a: 1\nb:\n  c: 1\n  c: 2\n", P, "p")
    assert [(d.message, d.line) for d in doc.duplicates] == [("duplicate key 'c'", 4)]


def test_syntax_error_has_a_line() -> None:
    doc = parse_yaml("a: 1\nb: [1, 2\nc: 3\n", P, "p")
    assert doc.data is None and doc.syntax_error is not None
    assert doc.syntax_error.message.startswith("YAML syntax error")
    assert doc.syntax_error.line == 3


def test_empty_and_missing_files(tmp_path: Path) -> None:
    (tmp_path / "e.yaml").write_text("")
    assert load_yaml(tmp_path / "e.yaml", "e.yaml").data is None
    assert not load_yaml(tmp_path / "m.yaml", "m.yaml").exists


def test_bad_bytes_are_a_problem_with_a_line(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_bytes(b"a: 1\nb: caf\xe9\n")
    doc = load_yaml(tmp_path / "b.yaml", "b.yaml")
    assert doc.syntax_error is not None and doc.syntax_error.line == 2


def test_unreadable_is_there_but_no_mapping(tmp_path: Path) -> None:
    """A syntax error or another kind of top level; an empty or missing file is not."""
    texts = {"ok.yaml": "a: 1\n", "empty.yaml": "", "broken.yaml": "a: [1\n", "list.yaml": "- 1\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    found = {n: load_yaml(tmp_path / n, n).unreadable for n in [*texts, "missing.yaml"]}
    assert found == {"ok.yaml": False, "empty.yaml": False, "broken.yaml": True,
                     "list.yaml": True, "missing.yaml": False}  # fmt: skip


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_any_text_parses_or_reports(text: str) -> None:
    doc = parse_yaml(text, P, "p")
    assert doc.syntax_error is None or doc.syntax_error.message.startswith("YAML syntax error")


# Values of the wrong type for typed keys of each schema.
WRONG = st.one_of(
    st.lists(st.integers(), min_size=1, max_size=3),
    st.dictionaries(st.sampled_from(["x", "y"]), st.integers(), min_size=1, max_size=2),
    st.booleans(),
)
LEGACY_TYPED = ["name", "author", "source", "license", "rights_owner", "limits", "grader",
                "validation", "validator_flags", "validator", "libraries", "languages", "type"]
MODERN_TYPED = ["name", "uuid", "license", "rights_owner", "limits", "keywords", "languages",
                "credits", "source", "embargo_until", "constants", "type", "allow_file_writing"]
MODERN_BASE = ("problem_format_version: 2023-07-draft\nname: X\n"
               "uuid: 6b5b3a5e-0d3f-4e8a-9d6c-2f1e7c3b9a10\n")


def wrong(key: str, value: object) -> object:
    """Make ``value`` certainly invalid for ``key`` (some generated values are valid)."""
    if isinstance(value, list) and key in ("author", "keywords", "languages", "credits", "source"):
        return [value]  # lists of strings are valid there; lists of lists never are
    if isinstance(value, dict) and key in ("limits", "constants", "credits", "name", "source"):
        return {"memory": "x"} if key == "limits" else {"1 x": []}
    if isinstance(value, bool) and key == "allow_file_writing":
        return "yes please"
    return value


@given(key=st.sampled_from(LEGACY_TYPED), value=WRONG)
@settings(max_examples=200, deadline=None)
def test_legacy_type_errors_name_the_key_and_line(key: str, value: object) -> None:
    text = "# a comment\n" + yaml.safe_dump({key: wrong(key, value)})
    findings = validate(parse_yaml(text, P, "problem.yaml"), "problem-legacy", "problem-yaml")
    assert findings, f"{key}: {value!r} was accepted"
    assert all(f.path == "problem.yaml" for f in findings)
    assert any(f.message.startswith(key) and f.line is not None and f.line >= 2 for f in findings)


@given(key=st.sampled_from(MODERN_TYPED), value=WRONG)
@settings(max_examples=200, deadline=None)
def test_modern_type_errors_name_the_key_and_line(key: str, value: object) -> None:
    text = MODERN_BASE + yaml.safe_dump({key: wrong(key, value)})
    findings = validate(parse_yaml(text, P, "problem.yaml"), "problem-2023-07", "problem-yaml")
    assert findings, f"{key}: {value!r} was accepted"
    assert any(f.message.startswith(key) and f.line is not None and f.line >= 4 for f in findings)
