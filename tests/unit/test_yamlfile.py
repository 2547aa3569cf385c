"""YAML reading with line marks, and Hypothesis-driven type errors in problem.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.checks.schema import validate
from problemtools_py.yamlfile import (
    MAX_ALIAS_NODES,
    MAX_DOCUMENT_BYTES,
    YamlBoundError,
    load_bounded,
    load_yaml,
    parse_yaml,
)

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
    assert doc.syntax_error is None or doc.syntax_error.message.startswith(
        ("YAML syntax error", "YAML document refused")
    )


def _laughs(levels: int, width: int = 9) -> str:
    text = f"x0: &x0 [{', '.join(['lol'] * width)}]\n"
    for i in range(1, levels + 1):
        text += f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * width)}]\n"
    return text


def test_billion_laughs_is_refused_without_expanding_it() -> None:
    """9**9 leaves from 460 bytes: refused by counting, never by walking or building."""
    doc = parse_yaml(_laughs(9), P, "p")
    assert doc.data is None and doc.syntax_error is not None
    assert "aliases expand this document by" in doc.syntax_error.message
    assert "billion laughs" in doc.syntax_error.message
    with pytest.raises(YamlBoundError):
        load_bounded(_laughs(9), getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def test_aliases_within_the_bound_load_and_are_walked_once() -> None:
    """Four levels (9**4 = 6,561 nodes added) are a real document: data as written; a
    key under the anchor has its line, one reached through an alias the alias's line."""
    text = "base: &b {memory: 1, time: 2}\n" + _laughs(4) + "other: *b\n"
    doc = parse_yaml(text, P, "p")
    assert doc.syntax_error is None
    assert doc.data["other"] is doc.data["base"] and len(doc.data["x4"]) == 9
    assert doc.line_of(("base", "time")) == 1 and doc.line_of(("other", "time")) == 7
    assert load_bounded(text) == doc.data


def test_the_alias_bound_is_exact() -> None:
    """A list of n aliases to a list of m scalars adds n * (m + 1) - (m + 1) nodes."""
    width = 1_000
    repeats = MAX_ALIAS_NODES // (width + 1) + 1
    shared = f"a: &a [{', '.join(['1'] * width)}]\n"
    under = shared + f"b: [{', '.join(['*a'] * (repeats - 1))}]\n"
    over = shared + f"b: [{', '.join(['*a'] * (repeats + 1))}]\n"
    assert parse_yaml(under, P, "p").syntax_error is None
    refused = parse_yaml(over, P, "p").syntax_error
    assert refused is not None and "aliases expand" in refused.message


def test_a_cycle_is_refused_with_its_line() -> None:
    doc = parse_yaml("name: x\nlimits: &a [1, *a]\n", P, "p")
    assert doc.syntax_error is not None and doc.syntax_error.line == 2
    assert "contains it (a cycle)" in doc.syntax_error.message


def test_deep_nesting_is_refused_not_a_traceback() -> None:
    for text in (
        "a: " + "[" * 5000 + "]" * 5000,
        "a:" + "".join(f"\n{' ' * i}b:" for i in range(2000)),
    ):
        doc = parse_yaml(text, P, "p")
        assert doc.syntax_error is not None, text[:20]
        with pytest.raises(yaml.YAMLError):
            load_bounded(text)


def test_a_document_over_the_size_bound_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_bytes(b"# " + b"x" * MAX_DOCUMENT_BYTES + b"\n")
    doc = load_yaml(tmp_path / "big.yaml", "big.yaml")
    assert doc.syntax_error is not None and "larger than 16 MiB" in doc.syntax_error.message


# Values of the wrong type for typed keys of each schema.
WRONG = st.one_of(
    st.lists(st.integers(), min_size=1, max_size=3),
    st.dictionaries(st.sampled_from(["x", "y"]), st.integers(), min_size=1, max_size=2),
    st.booleans(),
)
LEGACY_TYPED = [
    "name",
    "author",
    "source",
    "license",
    "rights_owner",
    "limits",
    "grader",
    "validation",
    "validator_flags",
    "validator",
    "libraries",
    "languages",
    "type",
]
MODERN_TYPED = [
    "name",
    "uuid",
    "license",
    "rights_owner",
    "limits",
    "keywords",
    "languages",
    "credits",
    "source",
    "embargo_until",
    "constants",
    "type",
    "allow_file_writing",
]
MODERN_BASE = (
    "problem_format_version: 2023-07-draft\nname: X\nuuid: 6b5b3a5e-0d3f-4e8a-9d6c-2f1e7c3b9a10\n"
)


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
