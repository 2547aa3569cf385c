"""cli/errorhandler.py: a console script's end (exit_process): its exit code, the atexit
handlers run and the streams flushed, the interpreter's teardown skipped only when no
thread but daemons is left (else the thread is waited for, as sys.exit does)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.packages import run_python

PROBE = """
import atexit, sys, threading, time
from pathlib import Path
from problemtools_py.cli.errorhandler import exit_process
out = Path(sys.argv[1])
atexit.register(lambda: (out / "atexit").write_text("ran"))
if sys.argv[2] == "thread":
    def late():
        time.sleep(0.3)
        (out / "thread").write_text("done")
    threading.Thread(target=late).start()
if sys.argv[2] == "daemon":
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
sys.stdout.write("no newline at the end")
exit_process(int(sys.argv[3]))
"""


@pytest.mark.parametrize("threads", ["none", "daemon", "thread"])
@pytest.mark.parametrize("code", [0, 1, 3])
def test_a_console_script_ends_with_its_code_its_handlers_run(
    tmp_path: Path, threads: str, code: int
) -> None:
    done = run_python(PROBE, str(tmp_path), threads, str(code), check=False, timeout=30)
    assert done.returncode == code and done.stderr == ""
    assert done.stdout == "no newline at the end"
    assert (tmp_path / "atexit").read_text() == "ran"
    assert (tmp_path / "thread").exists() is (threads == "thread")  # (waited for)


def test_a_closed_output_ends_it_quietly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # (buffered)
    reader = subprocess.Popen([sys.executable, "-c", PROBE, str(tmp_path), "none", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # (the reader went away before the flush)
    with reader.stderr:
        said = reader.stderr.read()
    assert reader.wait(timeout=30) == 1 and said == b""
    assert (tmp_path / "atexit").read_text() == "ran"
