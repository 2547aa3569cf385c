"""Issue 60: a package's test files become the dataset's tests byte for byte. Read as
text, a CR LF input became LF, and a correct program that sees the CR (the reference's
answer was computed on the real input) scored 0.0 from the dataset."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.dataset.build import NotText, read_cases, read_tests


def _package(root: Path, cases: dict[str, tuple[bytes, bytes]]) -> Path:
    for name, (stdin, stdout) in cases.items():
        path = root / "data" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".in").write_bytes(stdin)
        path.with_suffix(".ans").write_bytes(stdout)
    return root


def test_carriage_returns_and_lone_crs_are_kept(tmp_path: Path) -> None:
    root = _package(tmp_path, {"secret/1": (b"1 2\r\n3 4\r\n", b"3\r\n7\r\n"),
                               "sample/1": (b"a\rb\n", b"x\r")})  # fmt: skip
    assert read_tests(root) == [("a\rb\n", "x\r"), ("1 2\r\n3 4\r\n", "3\r\n7\r\n")]
    assert [path for path, _, _ in read_cases(root)] == ["data/sample/1", "data/secret/1"]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \t\r\n0é"), max_size=40))
def test_any_utf8_text_is_read_as_written(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        root = _package(Path(tmp), {"secret/1": (text.encode(), text.encode())})
        assert read_tests(root) == [(text, text)]


def test_a_test_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    root = _package(tmp_path, {"secret/1": (b"\xff\n", b"1\n")})
    with pytest.raises(NotText, match=r"data/secret/1.in: byte 0 is not UTF-8"):
        read_tests(root)
