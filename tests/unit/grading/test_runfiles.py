"""The files around one /run_code run (grading.runfiles): what a request may name, and
what is read back of what a hostile run leaves."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from problemtools_py.grading import runfiles
from problemtools_py.grading.runfiles import FilesError, RunFiles, fetch, parse


def test_names_are_normalised_and_none_is_skipped() -> None:
    got = parse({"./a//b.txt": base64.b64encode(b"x").decode(), "skip": None}, ["c/../d"])
    assert got == RunFiles((("a/b.txt", b"x"),), ("d",))
    assert not parse(None, None) and parse(None, ["x"])


@pytest.mark.parametrize(("files", "fetched", "what"), [
    ([], [], "must be an object"),
    ({}, "x", "must be an object"),
    ({"": "MQ=="}, [], "not a file name"),
    ({"a\0b": "MQ=="}, [], "not a file name"),
    ({".": "MQ=="}, [], "outside"),
    ({}, ["a/../../b"], "outside"),
    ({}, [7], "not a file name"),
    ({"x": "M Q=="}, [], "not valid base64"),
    ({}, ["x"] * (runfiles.MAX_FILES + 1), "at most"),
])  # fmt: skip
def test_bad_requests_are_named(files: object, fetched: object, what: str) -> None:
    with pytest.raises(FilesError, match=what):
        parse(files, fetched)


def test_the_working_directory_holds_the_files_and_goes(tmp_path: Path) -> None:
    given = parse({"a/b/c.txt": base64.b64encode(b"hi").decode()}, [])
    with runfiles.workdir(given) as work:
        assert (work / "a/b/c.txt").read_bytes() == b"hi"
        assert (work / "a/b").stat().st_mode & 0o777 == 0o777
        holder = work.parent
    assert not holder.exists()


def test_fetch_follows_no_link_at_any_step(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "key").write_text("private")
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "sub" / "ok.txt").write_text("fine")
    (work / "link").symlink_to(secret / "key")
    (work / "updir").symlink_to(secret)
    os.mkfifo(work / "fifo")
    names = ("sub/ok.txt", "link", "updir/key", "fifo", "sub", "absent")
    assert fetch(work, names) == {"sub/ok.txt": b"fine"}


def test_fetch_stops_at_its_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runfiles, "FETCH_BYTES", 10)
    for name, size in (("a", 6), ("b", 6), ("c", 4)):
        (tmp_path / name).write_bytes(b"x" * size)
    assert fetch(tmp_path, ("a", "b", "c")) == {"a": b"x" * 6, "c": b"x" * 4}


def test_encoded_is_base64() -> None:
    assert runfiles.encoded({"a": b"\xff\x00"}) == {"a": "/wA="}
