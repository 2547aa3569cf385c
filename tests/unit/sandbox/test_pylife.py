"""A program's end as python3 gives it (sandbox/pylife): the exit status of a SystemExit,
an uncaught exception handed to sys.excepthook, a module's globals cleared as CPython
clears one still alive. (Whole programs beside python3: tests/fidelity.)"""

from __future__ import annotations

import sys

import pytest

from problemtools_py.sandbox import pylife


@pytest.mark.parametrize(
    ("code", "status", "printed"),
    [
        (None, 0, ""),
        (0, 0, ""),
        (3, 3, ""),
        (True, 1, ""),
        (256, 0, ""),  # (the kernel keeps 8 bits)
        (-1, 255, ""),
        (1 << 70, 255, ""),  # (past a C long: CPython's -1)
        ("bad input", 1, "bad input\n"),
        ([3], 1, "[3]\n"),
    ],
)
def test_the_exit_status_of_a_system_exit(
    code: object, status: int, printed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pylife.exit_status(SystemExit(code)) == status
    assert capsys.readouterr().err == printed


def test_an_uncaught_exception_goes_to_the_programs_excepthook_from_its_own_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code = compile("def f():\n    raise KeyError('k')\nf()\n", "prog.py", "exec")
    seen: list[tuple[type[BaseException], list[str]]] = []

    def hook(kind: type[BaseException], value: BaseException, tb: object) -> None:
        names = []
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)  # type: ignore[attr-defined]
            tb = tb.tb_next  # type: ignore[attr-defined]
        seen.append((kind, names))

    monkeypatch.setattr(sys, "excepthook", hook)
    try:
        exec(code, {})
    except KeyError as exc:
        assert pylife.report(exc, code) is None
    assert seen == [(KeyError, ["<module>", "f"])]  # (not this test's frame)
    assert sys.last_type is KeyError


def test_an_excepthook_that_exits_gives_the_status(monkeypatch: pytest.MonkeyPatch) -> None:
    def hook(*args: object) -> None:
        raise SystemExit(8)

    monkeypatch.setattr(sys, "excepthook", hook)
    assert pylife.report(ValueError("x"), None) == 8


def test_a_module_still_alive_is_cleared_underscored_names_first() -> None:
    order: list[str] = []

    class Noted:
        def __init__(self, name: str) -> None:
            self.name = name

        def __del__(self) -> None:
            order.append(self.name)

    namespace = {"a": Noted("a"), "_b": Noted("_b"), "__builtins__": Noted("builtins"),
                 "c": Noted("c")}  # fmt: skip
    pylife._clear_module(namespace)
    assert order == ["_b", "a", "c"] and namespace["__builtins__"] is not None
    assert namespace["a"] is None
