"""model/testdata.py: which groups are judged and which only feed the validators, decided
once (by a group's or case's name) and asked for everywhere."""

from __future__ import annotations

import pytest

from problemtools_py.model.testdata import (
    JUDGED_GROUPS,
    VALIDATION_GROUPS,
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
