"""plasTeX's Unicode collation table, read at the first index sort instead of at import."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.packages import run_python
from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.statements import collation, latex_parse  # noqa: F401 (defers it)

INDEX = "plasTeX.Base.LaTeX.Index"
# Letters an index entry may hold: ASCII, accented Latin, Greek, and a space.
LETTERS = "abczABZ éèÉåÅäöüßñçøœ αβΓΩ"


def _index_collator() -> Any:
    return sys.modules[INDEX].collator


@pytest.fixture(scope="module")
def reference() -> Any:
    """pyuca's own Collator on plasTeX's table, loaded apart from plasTeX's module."""
    here = os.path.dirname(sys.modules[INDEX].__file__ or "")
    spec = importlib.util.spec_from_file_location("reference_pyuca", f"{here}/pyuca.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Collator(f"{here}/allkeys.txt")


def test_importing_the_latex_parser_reads_no_table() -> None:
    code = (
        "import sys; import problemtools_py.statements.latex_parse; "
        f"print(sys.modules[{INDEX!r}].collator.__self__.loaded)"
    )
    assert run_python(code).stdout.split() == ["False"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=LETTERS, min_size=1, max_size=12))
def test_index_sort_keys_are_pyucas(reference: Any, word: str) -> None:
    assert _index_collator()(word) == reference.sort_key(word)
    assert _index_collator().__self__.loaded


def test_index_entries_sort_as_before(reference: Any) -> None:
    words = ["zebra", "Éclair", "apple", "eclair", "Ångström", "beta", "Beta"]
    assert sorted(words, key=_index_collator()) == sorted(words, key=reference.sort_key)


def test_a_loaded_plastex_is_left_alone() -> None:
    before = sys.modules[collation.MODULE]
    collation.defer()  # (plasTeX is imported in this process: nothing to change)
    assert sys.modules[collation.MODULE] is before


def test_a_collator_module_that_will_not_load_is_left_to_plastex(tmp_path: Path) -> None:
    broken = tmp_path / "plasTeX"
    (broken / "Base" / "LaTeX").mkdir(parents=True)
    (broken / "__init__.py").write_text("")
    (broken / "Base" / "LaTeX" / "pyuca.py").write_text("this is not Python\n")
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('plasTeX', {str(broken / '__init__.py')!r})\n"
        "importlib.util.find_spec = lambda name, *a: spec\n"
        "from problemtools_py.statements import collation\n"
        "collation.defer()\n"
        "print(collation.MODULE in sys.modules)\n"
    )
    assert run_python(code).stdout.split() == ["False"]
