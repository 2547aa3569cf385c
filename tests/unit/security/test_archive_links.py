"""Trust boundary: a package given as an archive (docs/security.md). Its entries are data:
nothing is ever written through a link, whatever the order of the entries, and a link
that points out of the package (at once, or once the other entries are in place) is
refused. Property-tested over entry orders and link chains."""

from __future__ import annotations

import os
import stat
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.cli.verifyproblem import main
from problemtools_py.errors import FatalError
from problemtools_py.model import archive

Capture = pytest.CaptureFixture[str]
Entry = tuple[zipfile.ZipInfo, bytes]


def _file(name: str, data: bytes = b"x") -> Entry:
    return zipfile.ZipInfo(name), data


def _link(name: str, target: str) -> Entry:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def _bundle(path: Path, entries: list[Entry]) -> Path:
    with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as bundle:
        warnings.simplefilter("ignore")  # (a name twice: zipfile warns, and writes it)
        for info, data in entries:
            bundle.writestr(info, data)
    return path


def test_a_link_made_to_leave_by_a_later_link_writes_nothing_outside(tmp_path: Path,
                                                                     capsys: Capture) -> None:  # fmt: skip
    """``x -> y/y/y/y/y/y/y/y/../../../../../../../..`` is inside while ``y`` does not
    exist; ``y -> .`` then makes ``x`` the root of the machine, and a file entry below
    ``x`` would be written anywhere (issue 56)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    escape = "/".join(["y"] * 8 + [".."] * 8)
    packed = _bundle(tmp_path / "hello.zip", [
        _file("hello/problem.yaml", b"name: x\n"),
        _link("hello/x", escape),
        _link("hello/y", "."),
        _file(f"hello/x{outside}/pwned", b"root's now\n"),
    ])  # fmt: skip
    assert main(["--no-run", str(packed)]) != 0
    err = capsys.readouterr().err
    assert "hello.zip" in err and "Traceback" not in err
    assert list(outside.iterdir()) == []


def test_a_file_below_a_link_entry_is_refused_whatever_the_order(tmp_path: Path) -> None:
    """A link inside the package, then a file entry through it: never written through."""
    for order in ([0, 1, 2], [0, 2, 1]):
        entries = [_file("hello/problem.yaml", b"name: x\n"), _link("hello/d", "data"),
                   _file("hello/d/sample/1.in", b"1\n")]  # fmt: skip
        packed = _bundle(tmp_path / "hello.zip", [entries[i] for i in order])
        with pytest.raises(FatalError, match="hello/d"), archive.unpacked(packed):
            pass


def test_a_name_twice_is_refused(tmp_path: Path) -> None:
    packed = _bundle(tmp_path / "hello.zip", [_file("hello/problem.yaml", b"name: x\n"),
                                              _file("hello/a"), _link("hello/a", "..")])  # fmt: skip
    with pytest.raises(FatalError, match="'hello/a' appears twice"), archive.unpacked(packed):
        pass


def test_a_link_inside_the_package_is_kept(tmp_path: Path) -> None:
    packed = _bundle(tmp_path / "hello.zip", [
        _link("hello/data/secret/1.in", "../sample/1.in"),
        _file("hello/problem.yaml", b"name: x\n"),
        _file("hello/data/sample/1.in", b"1\n"),
    ])  # fmt: skip
    with archive.unpacked(packed) as root:
        assert (root / "data/secret/1.in").read_bytes() == b"1\n"
        assert (root / "data/secret/1.in").is_symlink()


NAMES = st.sampled_from(["a", "b", "c", "a/b", "b/c", "c/a"])
TARGETS = st.lists(st.sampled_from(["a", "b", "c", ".", ".."]), min_size=1, max_size=10)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.lists(st.one_of(
    st.tuples(st.just("link"), NAMES, TARGETS.map("/".join)),
    st.tuples(st.just("file"), NAMES.map(lambda n: f"{n}/f"), st.just("")),
    st.tuples(st.just("file"), NAMES, st.just("")),
), min_size=1, max_size=8))  # fmt: skip
def test_no_order_of_links_and_files_writes_outside(tmp_path: Path,
                                                   entries: list[tuple[str, str, str]]) -> None:  # fmt: skip
    """Whatever the entries and their order: nothing appears outside the unpacked
    package, and every link left in it resolves inside it."""
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    made = [_link(f"hello/{n}", t) if kind == "link" else _file(f"hello/{n}")
            for kind, n, t in entries]  # fmt: skip
    made.append(_file("hello/problem.yaml", b"name: x\n"))
    made.append(_file(f"hello/a/b/c{outside}/pwned"))
    packed = tmp_path / "hello.zip"
    packed.unlink(missing_ok=True)
    _bundle(packed, made)
    try:
        with archive.unpacked(packed) as root:
            inside = root.resolve()
            for path in root.rglob("*"):
                if path.is_symlink():
                    real = Path(os.path.realpath(path))
                    assert real == inside or inside in real.parents, path
    except FatalError:
        pass
    assert list(outside.iterdir()) == []
