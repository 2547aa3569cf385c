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
