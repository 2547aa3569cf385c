"""Whether a completion's Python compiles, asked of a helper process rather than done in
the grader's own (issue 40): compiling holds the interpreter's lock for as long as it
takes (an 8 MB completion held it 9 s; a program at the 256 KiB bound still ~0.25 s),
and while it is held no other worker of the grader can read its program's output, so an
honest program graded beside a huge completion blocked on a full pipe and timed out.
The helper is the grader's own interpreter (what compiled the code before, so the same
verdicts), started on first use, one per grader, its address space bounded so that no
completion makes the grader's machine swap; a helper that dies is started again."""

from __future__ import annotations

import contextlib
import struct
import subprocess
import sys
import threading

from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.judge import python2

_LENGTH = struct.Struct("!I")
_COMPILE_MAY_END = (Status.RUNTIME_ERROR, Status.MEMORY, Status.TIMEOUT)
MEMORY_BYTES = 2 << 30  # the helper's address space: a compile past it is a MemoryError

# Reads a length and that many bytes, compiles them as python3 reads a file (bytes: a
# BOM or coding line is the file's), answers with a length and the error ("" when it
# compiles), until its input ends.
_HELPER = f"""import resource, struct, sys
resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_BYTES}, {MEMORY_BYTES}))
read, write = sys.stdin.buffer.read, sys.stdout.buffer
length = struct.Struct("!I")
while True:
    head = read(4)
    if len(head) < 4:
        break
    code = read(length.unpack(head)[0])
    try:
        compile(code, "main.py", "exec", dont_inherit=True)
        why = b""
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
        why = f"{{type(exc).__name__}}: {{exc}}".encode("utf-8", "replace")
    write.write(length.pack(len(why)) + why)
    write.flush()
"""


class SyntaxCheck:
    """``error(code)``: None when ``code`` compiles, else what python3 would say (the
    exception's type and text)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._helper: subprocess.Popen[bytes] | None = None

    def error(self, code: str) -> str | None:
        data = code.encode("utf-8")
        with self._lock:
            helper = self._started()
            assert helper.stdin is not None and helper.stdout is not None
            try:
                helper.stdin.write(_LENGTH.pack(len(data)) + data)
                helper.stdin.flush()
                head = helper.stdout.read(_LENGTH.size)
                why = helper.stdout.read(_LENGTH.unpack(head)[0]) if len(head) == 4 else None
            except OSError:
                why = None
            if why is None:  # it died on this code (a crash of the compiler itself)
                status = self._stop()
                return f"the compiler crashed on it (exit status {status})"
        return why.decode("utf-8", "replace") or None

    def after(self, language: str, code: str, result: GradeResult) -> GradeResult:
        """``result`` of a program whose syntax was not checked before its run: a Python
        program is asked whether it compiles only when its first test ended in an error
        (a compilation that fails ends the run with an error; one that runs out of memory
        or time, with those): it runs nothing, so it never passes nor prints a wrong
        answer. Most completions do one or the other and skip the helper's round trip
        and a second compilation (issue 61). The result is the one the check before the
        run would have given."""
        if language != "python3" or result.status not in _COMPILE_MAY_END:
            return result
        if result.test not in (None, 0):
            return result
        why = self.error(code)
        return result if why is None else syntax_error(why)

    def _started(self) -> subprocess.Popen[bytes]:
        if self._helper is not None and self._helper.poll() is not None:
            self._stop()  # (it died between two completions: its pipes closed here)
        if self._helper is None:
            self._helper = subprocess.Popen(
                [sys.executable, "-S", "-I", "-c", _HELPER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        return self._helper

    def _stop(self) -> int | None:
        """Kill the helper (it died or is stuck on a code); its exit status."""
        helper, self._helper = self._helper, None
        if helper is None:
            return None
        with contextlib.suppress(OSError):
            helper.kill()
        return _ended(helper, 0)

    def close(self) -> None:
        """End the helper: its input closes, and it is waited on (killed after 5 s)."""
        with self._lock:
            helper, self._helper = self._helper, None
        if helper is not None:
            _ended(helper, 5)


def _ended(helper: subprocess.Popen[bytes], grace: float) -> int:
    """Close the helper's pipes and reap it (killed if it outlives ``grace`` seconds)."""
    for stream in (helper.stdin, helper.stdout):
        with contextlib.suppress(OSError):
            if stream is not None:
                stream.close()
    try:
        return helper.wait(timeout=grace or None)
    except subprocess.TimeoutExpired:
        helper.kill()
        return helper.wait()


def syntax_error(why: str) -> GradeResult:
    """The result of a Python program that does not compile (``why``: the helper's)."""
    return GradeResult(0.0, Status.SYNTAX_ERROR, message=python2.named(why)[:300])
