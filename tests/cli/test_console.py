"""cli/console.py: every console script setup.cfg installs runs its command's ``main``
and ends the process with its exit code."""

from __future__ import annotations

import configparser
import importlib
import subprocess
import sys

import pytest
from helpers.packages import REPO, SAMPLES, run_python

from problemtools_py.cli import console


def _entry_points() -> list[tuple[str, str]]:
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    lines = config["options.entry_points"]["console_scripts"].strip().splitlines()
    return [(name.strip(), target.strip()) for name, target in (line.split("=") for line in lines)]


@pytest.mark.parametrize(("script", "target"), _entry_points())
def test_every_script_is_a_command_of_console(script: str, target: str) -> None:
    module, function = target.split(":")
    assert module == "problemtools_py.cli.console" and callable(getattr(console, function))
    command = "hook" if script == "verifyproblem-hook" else script
    assert function == command and callable(importlib.import_module(
        f"problemtools_py.cli.{command}").main)  # fmt: skip


@pytest.mark.parametrize(("args", "code", "said"), [
    (["-p", "config", str(SAMPLES / "hello")], 0, "hello: 0 errors, 0 warnings"),
    (["--no-such-option"], 2, ""),
    ([str(SAMPLES / "no-such-problem")], 2, ""),
])  # fmt: skip
def test_python_dash_m_runs_verifyproblem(args: list[str], code: int, said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "problemtools_py", *args], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == code and said in done.stdout


@pytest.mark.parametrize("where", ["import", "main"])
def test_ctrl_c_before_the_commands_handler_is_an_interrupt_not_a_traceback(where: str) -> None:
    """Ctrl-C while the command's modules load (or before its main's own handler is in
    place) exits 130 with one line, as an interrupt anywhere later does."""
    code = ("import sys\n"
            "from problemtools_py.cli import console\n"
            "def stop(*args):\n"
            "    raise KeyboardInterrupt\n"
            f"if {where!r} == 'import':\n"
            "    console.import_module = stop\n"
            "else:\n"
            "    import problemtools_py.cli.verifyproblem as command\n"
            "    command.main = stop\n"
            "sys.argv[0] = '/somewhere/verifyproblem'\n"
            "console.verifyproblem()\n")  # fmt: skip
    done = run_python(code, check=False)
    assert (done.returncode, done.stderr) == (130, "verifyproblem: interrupted\n")
