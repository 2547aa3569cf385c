"""model/testdata.py: which groups are judged and which only feed the validators, decided
once (by a group's or case's name) and asked for everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from problemtools_py.model import load_problem
from problemtools_py.model.testdata import (
    ALL_KINDS,
    JUDGED_GROUPS,
    VALIDATION_GROUPS,
    VALIDATION_KINDS,
    GroupKind,
    cases_in,
    is_for_validation,
    is_judged,
    top_group,
)


@pytest.mark.parametrize(("name", "judged", "validation"), [
    ("sample", True, False), ("sample/01", True, False), ("secret", True, False),
    ("secret/g1/02", True, False), ("invalid_input/x", False, True),
    ("invalid_output", False, True), ("valid_output/a/b", False, True),
    ("", False, False), ("samples", False, False), ("secretive/1", False, False),
    ("extra/sample", False, False),
])  # fmt: skip
def test_a_name_belongs_to_its_top_group(name: str, judged: bool, validation: bool) -> None:
    assert (is_judged(name), is_for_validation(name)) == (judged, validation)
    assert top_group(name) == name.split("/")[0]


def test_the_judged_groups_are_in_judging_order_and_apart_from_the_validators() -> None:
    assert JUDGED_GROUPS == ("sample", "secret")
    assert not set(JUDGED_GROUPS) & set(VALIDATION_GROUPS)


@pytest.mark.parametrize(("name", "kind"), [
    ("secret/g1/02", GroupKind.JUDGED), ("sample", GroupKind.JUDGED),
    ("invalid_input/x", GroupKind.INVALID_INPUT), ("invalid_answer/y", GroupKind.INVALID_ANSWER),
    ("invalid_output/z", GroupKind.INVALID_OUTPUT), ("valid_output", GroupKind.VALID_OUTPUT),
    ("", GroupKind.OTHER), ("invalid_inputs/1", GroupKind.OTHER), ("extra/sample", GroupKind.OTHER),
])  # fmt: skip
def test_a_name_has_the_kind_of_its_top_group(name: str, kind: GroupKind) -> None:
    assert GroupKind.of(name) is kind
    assert (kind is GroupKind.JUDGED) == is_judged(name)
    assert (kind in VALIDATION_KINDS) == is_for_validation(name)


def test_cases_are_picked_by_kind_and_files_in_the_packages_order(tmp_path: Path) -> None:
    files = ["data/sample/1.in", "data/sample/1.ans", "data/secret/b/2.in", "data/secret/b/2.ans",
             "data/secret/a.in", "data/invalid_input/bad.in", "data/invalid_output/o.in",
             "data/invalid_output/o.ans", "data/invalid_output/o.out", "data/extra/loose.in",
             "data/extra/loose.ans"]  # fmt: skip
    for rel in ["problem.yaml", *files]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("1\n")
    data = load_problem(tmp_path).data

    def names(kinds: frozenset[GroupKind] | set[GroupKind], needs: tuple[str, ...]) -> list[str]:
        return [case.name for case in cases_in(data, kinds, needs)]

    assert names({GroupKind.JUDGED}, (".in", ".ans")) == ["sample/1", "secret/b/2"]
    assert names({GroupKind.JUDGED}, (".in",)) == ["sample/1", "secret/a", "secret/b/2"]
    assert names(VALIDATION_KINDS, (".in",)) == ["invalid_input/bad", "invalid_output/o"]
    assert names({GroupKind.OTHER}, (".in", ".ans")) == ["extra/loose"]
    assert names(ALL_KINDS, (".out",)) == ["invalid_output/o"]
    assert cases_in(None, ALL_KINDS, ()) == []


# -- the files a case may have: one table (issue 59: five lists had drifted apart) ------
def test_each_format_version_allows_the_files_its_text_names() -> None:
    from problemtools_py.model.testdata import case_extensions

    # spec/legacy.md's test data table; spec/2025-09.md's table of test-case files
    legacy = {".in", ".ans", ".desc", ".hint", ".interaction", ".png", ".jpg", ".jpeg", ".svg"}
    released = {".in", ".ans", ".out", ".interaction", ".in.statement", ".ans.statement",
                ".in.download", ".ans.download", ".files", ".yaml", ".png", ".jpg", ".jpeg",
                ".svg"}  # fmt: skip
    assert case_extensions(True) == legacy
    assert case_extensions(False) == released | {".desc", ".hint"}  # (moved: warned)


def test_a_longer_extension_wins_and_unknown_names_are_no_case_file() -> None:
    from problemtools_py.model.testdata import split_case_name

    assert split_case_name("01.in.statement") == ("01", ".in.statement")
    assert split_case_name("01.ans.download") == ("01", ".ans.download")
    assert split_case_name("a.b.in") == ("a.b", ".in")
    assert split_case_name(".in") is None
    assert split_case_name("notes.txt") is None


@pytest.mark.parametrize(("ext", "case", "misplaced"), [
    (".in.statement", "sample/1", False), (".in.statement", "secret/1", True),
    (".out", "secret/g/1", True), (".out", "valid_output/1", False),
    (".out", "invalid_output/1", False), (".ans.download", "invalid_output/1", True),
    (".in", "secret/1", False), (".png", "secret/1", False),
])  # fmt: skip
def test_samples_only_files_are_placed_by_one_rule(ext: str, case: str, misplaced: bool) -> None:
    from problemtools_py.model.testdata import sample_only_here

    assert sample_only_here(ext, case) is misplaced


def test_what_generators_may_write_follows_the_table() -> None:
    from problemtools_py.generate.plan import CASE_EXTENSIONS, CASE_KEYS

    assert ".jpeg" in CASE_EXTENSIONS and ".pdf" in CASE_EXTENSIONS  # (format's; BAPCtools')
    assert ".files" not in CASE_EXTENSIONS and "desc" not in CASE_KEYS
