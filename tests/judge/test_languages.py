"""The judge's language table: which language a program's files and first lines name."""

from __future__ import annotations

import pytest

from problemtools_py.judge.languages import Languages


@pytest.mark.parametrize(
    ("names", "first_line", "code"),
    [
        (["a.py"], "", "python3"),
        (["a.py"], "#!/usr/bin/python", "python3"),  # BAPCtools' guessnoeofcheck validator
        (["a.py"], "#!/usr/bin/env python3", "python3"),
        (["a.py"], "#!/usr/bin/env python2", None),  # Python 2: not the judge's
        (["a.c", "b.cc"], "", "cpp"),
        (["A.java"], "", "java"),
        (["a.kt"], "", "kotlin"),
        (["a.rs"], "", "rust"),
        (["a.py", "b.c"], "", None),
    ],
)
def test_detect(names: list[str], first_line: str, code: str | None) -> None:
    language = Languages.load().detect(names, dict.fromkeys(names, first_line))
    assert (language.code if language else None) == code
