"""model/archive.py: a package given as .zip or .kpp is verified like its directory, and
an archive that would write outside it, link outside it, or unpack to too much is
refused with a clear message naming it."""

from __future__ import annotations

import json
import shutil
import stat
import zipfile
from pathlib import Path

import pytest
from helpers.packages import SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.cli.verifyproblem import main
from problemtools_py.model import archive

Capture = pytest.CaptureFixture[str]


def zip_dir(source: Path, out: Path, prefix: str) -> Path:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        for path in sorted(source.rglob("*")):
            bundle.write(path, prefix + path.relative_to(source).as_posix())
    return out


@pytest.mark.parametrize(("name", "prefix"), [("hello.zip", "hello/"), ("hello.kpp", ""),
                                              ("hello.kpp", "hello/")])
def test_an_archive_verifies_like_its_directory(tmp_path: Path, capsys: Capture, name: str,
                                                prefix: str) -> None:
    packed = zip_dir(SAMPLES / "hello", tmp_path / name, prefix)
    assert main(["--json", "-p", "config,statement,data", str(packed)]) == 0
    out = capsys.readouterr().out
    assert f'"path": "{packed}"' in out and '"name": "hello"' in out and '"findings": []' in out


def _bundle(path: Path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as bundle:
        for info, data in entries:
            bundle.writestr(info, data)
    return path


def _link(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


@pytest.mark.parametrize(("entries", "why"), [
    ([("hello/problem.yaml", b"name: x\n"), ("hello/../evil", b"x")], "outside the package"),
    ([("/etc/evil", b"x")], "outside the package"),
    ([("hello/problem.yaml", b"name: x\n"), _link("hello/p", "/etc/passwd")],
     "points outside the package"),
    ([("hello/problem.yaml", b"name: x\n"), _link("hello/p", "../../x")],
     "points outside the package"),
    ([("one/a", b""), ("two/b", b"")], "one directory named 'hello/'"),
    # (one package in a directory not named like the archive: the format's rule)
    ([("one/problem.yaml", b"name: x\n"), ("contest.yaml", b"")], "one directory named 'hello/'"),
])
def test_a_hostile_or_odd_archive_is_refused(tmp_path: Path, capsys: Capture,
                                             entries: list[tuple[zipfile.ZipInfo | str, bytes]],
                                             why: str) -> None:
    packed = _bundle(tmp_path / "hello.zip", entries)
    assert main(["--no-run", str(packed)]) != 0
    err = capsys.readouterr().err
    assert why in err and "hello.zip" in err and "Traceback" not in err
    assert not (tmp_path.parent / "evil").exists() and not Path("/etc/evil").exists()


def test_a_zip_bomb_stops_at_the_size_bound(tmp_path: Path, capsys: Capture,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "MAX_TOTAL", 1 << 20)
    packed = tmp_path / "hello.zip"
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("hello/problem.yaml", b"name: x\n")
        bundle.writestr("hello/data/big.in", b"\0" * (4 << 20))  # compresses to kilobytes
    assert main(["--no-run", str(packed)]) != 0
    assert "unpacks to more than" in capsys.readouterr().err


def test_a_damaged_entry_is_a_clear_error(tmp_path: Path, capsys: Capture) -> None:
    # (a byte changed inside an entry's data: zipfile's CRC error was an internal error)
    packed = _bundle(tmp_path / "hello.zip", [("hello/problem.yaml", b"name: x\n" * 50)])
    data = bytearray(packed.read_bytes())
    data[data.index(b"name: x") + 3] ^= 0xFF
    packed.write_bytes(bytes(data))
    assert main(["--no-run", str(packed)]) == 2
    err = capsys.readouterr().err
    assert "not a readable ZIP archive: entry 'hello/problem.yaml': Bad CRC-32" in err


def test_an_archive_of_a_zip_version_zipfile_lacks_is_a_clear_error(tmp_path: Path,
                                                                    capsys: Capture) -> None:  # fmt: skip
    packed = _bundle(tmp_path / "hello.zip", [("hello/problem.yaml", b"name: x\n")])
    data = bytearray(packed.read_bytes())
    at = data.index(b"PK\x01\x02") + 6  # (the central directory's "version needed")
    data[at : at + 2] = (209).to_bytes(2, "little")
    packed.write_bytes(bytes(data))
    assert main(["--no-run", str(packed)]) == 2
    assert "not a readable ZIP archive: zip file version 20.9" in capsys.readouterr().err


def test_a_file_where_a_directory_must_be_is_a_clear_error(tmp_path: Path,
                                                           capsys: Capture) -> None:  # fmt: skip
    packed = _bundle(tmp_path / "hello.zip", [("hello/problem.yaml", b"name: x\n"),
                                              ("hello/data", b"a file"),
                                              ("hello/data/sample/1.in", b"1\n")])  # fmt: skip
    assert main(["--no-run", str(packed)]) == 2
    err = capsys.readouterr().err
    assert "entry 'hello/data/sample/1.in' cannot be unpacked: " in err and "Traceback" not in err


def test_not_a_zip_is_a_clear_error(tmp_path: Path, capsys: Capture) -> None:
    fake = tmp_path / "hello.zip"
    fake.write_text("not a zip")
    assert main(["--no-run", str(fake)]) != 0
    err = capsys.readouterr().err
    assert "not a readable ZIP archive" in err and "hello.zip" in err


def test_nothing_is_left_unpacked(tmp_path: Path, capsys: Capture) -> None:
    import tempfile

    before = set(Path(tempfile.gettempdir()).glob("ptpy-archive-*"))
    packed = zip_dir(SAMPLES / "hello", tmp_path / "hello.zip", "hello/")
    main(["--no-run", str(packed)])
    capsys.readouterr()
    assert set(Path(tempfile.gettempdir()).glob("ptpy-archive-*")) == before
    shutil.rmtree(tmp_path, ignore_errors=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), min_size=1, max_size=8),
       st.integers(0, 100))
def test_a_damaged_archive_is_a_finding_or_a_clear_error(tmp_path: Path, capsys: Capture,
                                                         flips: list[tuple[int, int]],
                                                         cut: int) -> None:  # fmt: skip
    # (bytes changed anywhere, the end cut off: 23 of 150 such archives were internal errors)
    pristine, packed = tmp_path / "pristine.zip", tmp_path / "hello.zip"
    if not pristine.exists():  # (tmp_path is one for every example)
        zip_dir(SAMPLES / "hello", pristine, "hello/")
    data = bytearray(pristine.read_bytes())
    for at, value in flips:
        data[at % len(data)] = value
    packed.write_bytes(bytes(data[: max(1, len(data) * (100 - cut) // 100)] if cut > 90 else data))
    assert main(["--no-run", "-q", "-p", "config,data", str(packed)]) in (0, 1, 2)
    assert "internal error" not in capsys.readouterr().err


def test_a_contests_archive_stands_for_its_packages(tmp_path: Path, capsys: Capture) -> None:
    """verifyproblem set.zip (problem2zip --problemset's, DOMjudge's): each package in it,
    named as in the archive, unpacked once and removed after."""
    import tempfile

    before = set(Path(tempfile.gettempdir()).glob("ptpy-archive-*"))
    contest = tmp_path / "contest"
    for name in ("hello", "average"):
        shutil.copytree(SAMPLES / name, contest / name)
    (contest / "contest.yaml").write_text("name: Demo\n")
    packed = zip_dir(contest, tmp_path / "set.zip", "")
    assert main(["--json", "-p", "config,statement,data", str(packed)]) == 0
    captured = capsys.readouterr()
    problems = json.loads(captured.out)["problems"]
    assert [(p["name"], p["path"], p["errors"]) for p in problems] == [
        ("average", f"{packed}/average", 0), ("hello", f"{packed}/hello", 0)
    ]  # fmt: skip
    assert "is a contest's archive; taking the 2 packages in it: average, hello" in captured.err
    assert set(Path(tempfile.gettempdir()).glob("ptpy-archive-*")) == before
    (contest / "average" / "problem.yaml").write_text("name: [\n")  # (one broken: said where)
    packed = zip_dir(contest, tmp_path / "set2.zip", "")
    assert main(["-p", "config", str(packed)]) == 1
    assert f"{packed}/average/problem.yaml:" in capsys.readouterr().out
