"""verifyproblem --sanitizer: C and C++ submissions built with AddressSanitizer and
UndefinedBehaviorSanitizer; undefined behaviour that passes by luck becomes a run time
error whose message is the sanitizer's report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from problemtools_py.cli.newproblem import main as newproblem
from problemtools_py.cli.verifyproblem import main as verify
from problemtools_py.judge.languages import SANITIZER_FLAGS, Languages
from problemtools_py.sandbox.results import Outcome, RunResult

Capture = pytest.CaptureFixture[str]
LUCKY = """#include <cstdio>
int main() {
    int n; scanf("%d", &n);
    long long a[8], total = 0;  // too small for n up to 1000: writes past its end
    for (int i = 0; i < n; i++) { long long x; scanf("%lld", &x); a[i % 16] = x; total += x; }
    printf("%lld\\n", total + 0 * a[0]);
}
"""
HEAP = """#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n; long long x, total = 0;
    if (scanf("%d", &n) != 1) return 1;
    long long *seen = malloc(2 * sizeof *seen);
    for (int i = 0; i < n; i++) { scanf("%lld", &x); total += x; if (i < 3) seen[i] = x; }
    printf("%lld\\n", total + 0 * seen[0]);
    return 0;
}
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("made")
    assert newproblem(["sum", "-d", str(root), "--languages", "python3,cpp"]) == 0
    return root / "sum"


def _errors(root: Path, capsys: Capture, *options: str) -> list[str]:
    capsys.readouterr()
    verify(["--json", "-p", "submissions", *options, str(root)])
    findings = json.loads(capsys.readouterr().out)["problems"][0]["findings"]
    return [f["message"] for f in findings if f["severity"] == "error"]


@pytest.mark.parametrize(("name", "source", "said"), [
    ("lucky.cpp", LUCKY, "runtime error: index 8 out of bounds for type 'long long int [8]'"),
    ("heap.c", HEAP, "runtime error: store to address"),  # (UBSan's object size, first)
])  # fmt: skip
def test_luck_is_caught(made: Path, tmp_path: Path, capsys: Capture, name: str, source: str,
                        said: str) -> None:  # fmt: skip
    root = shutil.copytree(made, tmp_path / "sum")
    (root / "submissions/accepted" / name).write_text(source)
    assert _errors(root, capsys) == []  # (it passes by luck)
    (found,) = _errors(root, capsys, "--sanitizer")
    assert "got RTE" in found and said in found


def test_sound_programs_pass_sanitized(made: Path, capsys: Capture) -> None:
    assert _errors(made, capsys, "--sanitizer") == []


def test_only_c_and_cpp_are_sanitized() -> None:
    plain, sanitized = Languages.load(), Languages.load().with_sanitizers()
    for code in ("c", "cpp"):
        language = sanitized.table[code]
        assert language.sanitized and set(SANITIZER_FLAGS) <= set(language.compile)
        assert language.extra_memory_mb > plain.table[code].extra_memory_mb
        assert not language.precompiled_headers
    assert sanitized.table["java"] == plain.table["java"]


def test_the_report_is_the_runs_error() -> None:
    stderr = b"==1==ERROR: AddressSanitizer: heap-buffer-overflow on address\n    #0 main\n" \
             b"SUMMARY: AddressSanitizer: heap-buffer-overflow a.c:7 in main\n==1==ABORTING\n"
    run = RunResult(Outcome.RTE, 1, None, 0.0, 0.0, 0, 0, b"", stderr)
    assert run.error_line() == "SUMMARY: AddressSanitizer: heap-buffer-overflow a.c:7 in main"
