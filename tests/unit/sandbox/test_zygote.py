"""The lean init's own logic, outside a jail: how it keeps a main file ready."""

from __future__ import annotations

from pathlib import Path

import pytest

from problemtools_py.sandbox import inprocess, zygote


def _argv(main: Path, *args: str) -> list[str]:
    return ["python3", "-S", str(main), *args]


def test_a_change_of_arguments_alone_keeps_the_compiled_code(tmp_path: Path) -> None:
    """A validator's arguments name each test's files: the init compiles it once, and
    makes only the small Main (argv, module) again."""
    main = tmp_path / "main.py"
    main.write_text("print(1)\n")
    main.chmod(0o644)
    first = zygote.prepared(str(main), _argv(main, "a"))
    second = zygote.prepared(str(main), _argv(main, "b"))
    assert first is not None and second is not None
    assert second.code is first.code
    assert (first.argv, second.argv) == ([str(main), "a"], [str(main), "b"])
    assert second.module is not first.module
    assert zygote.prepared(str(main), _argv(main, "b")) is second


def test_new_bytes_in_the_main_file_are_compiled_again(tmp_path: Path) -> None:
    main = tmp_path / "main.py"
    main.write_text("print(1)\n")
    main.chmod(0o644)
    first = zygote.prepared(str(main), _argv(main))
    main.write_text("print(2)\n")
    second = zygote.prepared(str(main), _argv(main))
    assert first is not None and second is not None
    assert second.code is not first.code
    assert 2 in second.code.co_consts


def test_a_main_file_the_sandbox_user_cannot_read_is_left_to_the_program(
    tmp_path: Path,
) -> None:
    main = tmp_path / "main.py"
    main.write_text("print(1)\n")
    main.chmod(0o600)
    assert zygote.prepared(str(main), _argv(main)) is None
    main.chmod(0o644)
    main.write_text("print(\n")
    assert zygote.prepared(str(main), _argv(main)) is None  # (its own run says why)


def test_a_change_of_arguments_alone_lists_no_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What each run drops (inprocess.shadowed_modules), what it may import and whether
    its end collects (inprocess.needs_teardown) are found with the code, from one listing
    of its directory: a validator's runs do not list it every test."""
    main = tmp_path / "main.py"
    main.write_text("print(1)\n")
    main.chmod(0o644)
    listed: list[str] = []
    real = inprocess.local_names
    monkeypatch.setattr(inprocess, "local_names", lambda d: listed.append(d) or real(d))
    first = zygote.prepared(str(main), _argv(main, "a"))
    count = len(listed)
    second = zygote.prepared(str(main), _argv(main, "b"))
    assert first is not None and second is not None and count == 1
    assert len(listed) == count and second.shadowed == first.shadowed
