"""verifyproblem end to end with everything running: every sample is clean, and broken
copies trigger each failure (data-driven: one small builder per case)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest
from helpers.builders import append, move, replace, write
from helpers.packages import SAMPLE_NAMES, SAMPLES
from helpers.processes import stray_processes

from problemtools_py.cli.verifyproblem import main
from problemtools_py.resources import load_schema

Capture = pytest.CaptureFixture[str]


def run_json(args: list[str], capsys: Capture) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["--json", *args])
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, load_schema("report"))
    return code, report["problems"][0]


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_every_sample_is_clean_with_everything_running(name: str, capsys: Capture) -> None:
    code, problem = run_json([str(SAMPLES / name)], capsys)
    assert code == 0, problem["findings"]
    assert problem["findings"] == []
    assert problem["time_limit"] is not None and problem["time_limit"] > 0
    rows = {row["submission"]: row for row in problem["submissions"]}
    assert rows and all(row["verdict"] != "JE" for row in rows.values())
    for rel, row in rows.items():
        if "/accepted/" in rel:
            assert row["verdict"] == "AC", row


def test_results_table_is_printed(capsys: Capture) -> None:
    assert main(["-p", "submissions", "-s", "hello\\.(py|c)$", str(SAMPLES / "hello")]) == 0
    out = capsys.readouterr().out
    assert "time limit 1 s" in out and "accepted/hello.py" in out and "AC" in out


@dataclass(frozen=True)
class Broken:
    id: str
    sample: str
    build: Callable[[Path], None]
    check: str
    text: str
    path: str | None = None
    args: tuple[str, ...] = ()
    severity: str = "error"


HELLO_BAD_VALIDATOR = "import sys\nsys.stdin.read()\nsys.exit(42)\n"
SLOW_AC = """import time
start = time.process_time()
while time.process_time() - start < 1.4:
    pass
print(f"Hello {input().strip()}!")
"""

CASES = [
    Broken("wrong-answer-labelled-accepted", "hello",
           lambda p: move(p, "submissions/wrong_answer/world.py", "submissions/accepted/world.py"),
           "submission", "got WA on sample/2", "submissions/accepted/world.py",
           ("-p", "submissions", "-s", "accepted/")),
    Broken("accepted-in-wrong-answer", "hello",
           lambda p: move(p, "submissions/accepted/hello.py", "submissions/wrong_answer/good.py"),
           "submission", "requires WA on some test case", "submissions/wrong_answer/good.py",
           ("-p", "submissions", "-s", "(accepted/hello.c|good)")),
    Broken("crash-labelled-tle", "hello",
           lambda p: move(p, "submissions/run_time_error/crash.py",
                          "submissions/time_limit_exceeded/crash.py"),
           "submission", "got RTE on sample/1", "submissions/time_limit_exceeded/crash.py",
           ("-p", "submissions", "-s", "(accepted/hello.c|crash)")),
    Broken("compile-error-not-expected", "hello",
           lambda p: write(p, "submissions/accepted/broken.c", "int main(void) { return x; }\n"),
           "submission", "does not compile", "submissions/accepted/broken.c",
           ("-p", "submissions", "-s", "accepted/(broken|hello.c)")),
    Broken("python-syntax-error-not-expected", "hello",
           lambda p: write(p, "submissions/accepted/broken.py", "print((1)\n"),
           "submission", "(exit code 1)\nFile \"broken.py\", line 1\n    print((1)\n         ^\n"
           "SyntaxError: '(' was never closed", "submissions/accepted/broken.py",
           ("-p", "submissions", "-s", "accepted/(broken|hello.c)")),
    Broken("compile-error-expected-but-compiles", "average",
           lambda p: replace(p, "submissions/intdiv.c", "@EXPECTED_RESULT@: WA", "@EXPECTED_RESULT@: CE"),
           "submission", "expects a compile error", "submissions/intdiv.c",
           ("-p", "submissions", "-s", "(intdiv|mean.cpp)")),
    Broken("wrong-sample-answer", "divisor",
           lambda p: write(p, "data/sample/1.ans", "5\n"),
           "answer", "5 is not a proper divisor of 12", "data/sample/1.ans", ("-p", "validators")),
    Broken("wrong-secret-answer-is-a-warning", "divisor",
           lambda p: write(p, "data/secret/1.ans", "3\n"),
           "answer", "does not accept this answer", "data/secret/1.ans", ("-p", "validators"),
           "warning"),
    Broken("wrong-answer-fails-accepted", "hello",
           lambda p: write(p, "data/secret/02.ans", "Goodbye\n"),
           "submission", "got WA on secret/02", "submissions/accepted/hello.c",
           ("-p", "submissions", "-s", "accepted/hello.c")),
    Broken("input-rejected", "hello", lambda p: (write(p, "data/secret/05.in", "R2D2\n"),
                                                write(p, "data/secret/05.ans", "Hello R2D2!\n")),
           "input-validator", "input validator validate rejects this input", "data/secret/05.in",
           ("-p", "validators")),
    Broken("validator-accepts-junk", "hello",
           lambda p: write(p, "input_validators/validate.py", HELLO_BAD_VALIDATOR),
           "input-validator", "no input validator rejects 1024 random bytes", None,
           ("-p", "validators"), "warning"),
    Broken("output-validator-crashes-on-probe", "divisor",
           lambda p: replace(p, "output_validators/divisor_checker/checker.py",
                             "    tokens = team.split()", "    int(team)\n    tokens = team.split()"),
           "output-validator", "fails on", None, ("-p", "validators")),
    Broken("output-validator-accepts-junk", "divisor",
           lambda p: replace(p, "output_validators/divisor_checker/checker.py",
                             "    tokens = team.split()", "    sys.exit(42)\n    tokens = team.split()"),
           "output-validator", "the output validator accepts", None, ("-p", "validators"),
           "warning"),
    Broken("custom-grader-prints-garbage", "bigsum",
           lambda p: write(p, "graders/grader.py", "print('well done')\n"),
           "grader", "grader failed", None, ("-p", "submissions", "-s", "sum.py")),
    Broken("score-expectation-missed", "bigsum",
           lambda p: replace(p, "submissions/partially_accepted/int32.c", "@EXPECTED_RESULT@: 30",
                             "@EXPECTED_RESULT@: 40"),
           "submission", "expects score 40", "submissions/partially_accepted/int32.c",
           ("-p", "submissions", "-s", "(int32|sum.c)")),
    Broken("modern-invalid-input-accepted", "different",
           lambda p: (write(p, "data/invalid_input/negative.in", "1 2\n")),
           "input-validator", "must be rejected", "data/invalid_input/negative.in",
           ("-p", "validators")),
    Broken("submissions-yaml-required-verdict", "different",
           lambda p: replace(p, "submissions/submissions.yaml", "required: [WA]", "required: [RTE]"),
           "submission", "requires RTE on some test case", "submissions/rejected/nosign.py",
           ("-p", "submissions", "-s", "(nosign|diff.cpp)")),
    Broken("sensitive-to-the-time-limit", "hello",
           lambda p: write(p, "submissions/time_limit_exceeded/almost.py", SLOW_AC),
           "submission", "sensitive to the time limit", "submissions/time_limit_exceeded/almost.py",
           ("-p", "submissions", "-s", "almost", "-d", "sample/1", "-t", "1"), "warning"),
    Broken("interactive-wrong-answer-labelled-accepted", "guess",
           lambda p: move(p, "submissions/wrong_answer/linear.py", "submissions/accepted/linear.py"),
           "submission", "got WA on", "submissions/accepted/linear.py",
           ("-p", "submissions", "-s", "accepted/")),
    Broken("multi-pass-wrong-labelled-accepted", "twopass",
           lambda p: move(p, "submissions/wrong_answer/onepass.py", "submissions/accepted/onepass.py"),
           "submission", "got WA on sample/1", "submissions/accepted/onepass.py",
           ("-p", "submissions", "-s", "accepted/")),
]


@pytest.mark.parametrize("broken", CASES, ids=[c.id for c in CASES])
def test_broken_package_fails_when_run(broken: Broken, copy_sample: Callable[..., Path],
                                       capsys: Capture) -> None:
    root = copy_sample(broken.sample)
    broken.build(root)
    code, problem = run_json([*broken.args, str(root)], capsys)
    found = [f for f in problem["findings"] if f["check"] == broken.check
             and broken.text in f["message"] and f["severity"] == broken.severity
             and (broken.path is None or f["path"] == broken.path)]
    assert found, json.dumps(problem["findings"], indent=1)
    assert code == (1 if broken.severity == "error" else 0)


def test_fixed_time_limit_and_timelimit_file(copy_sample: Callable[..., Path], capsys: Capture) -> None:
    root = copy_sample("hello")
    _, problem = run_json(["-p", "submissions", "-s", "hello.c", "-t", "3", str(root)], capsys)
    assert (problem["time_limit"], problem["time_limit_source"]) == (3, "-t/--fixed-timelim")
    (root / ".timelimit").write_text("2\n")
    _, problem = run_json(["-p", "submissions", "-s", "hello.c", str(root)], capsys)
    assert (problem["time_limit"], problem["time_limit_source"]) == (2, ".timelimit")


def test_data_filter_limits_the_cases(capsys: Capture) -> None:
    _, problem = run_json(["-p", "submissions", "-s", "hello\\.c$", "-d", "secret/0[12]",
                           str(SAMPLES / "hello")], capsys)
    (row,) = problem["submissions"]
    assert list(row["groups"]) == ["secret"] and row["groups"]["secret"]["cases"] == 2


def test_a_legacy_export_s_other_directories_are_judged_by_their_tags(
        copy_sample: Callable[..., Path], capsys: Capture) -> None:  # fmt: skip
    """BAPCtools' legacy exports (and DOMjudge's packages) keep programs beside the
    standard directories: a tagged one is judged by its tag (several results in one tag);
    one without a tag is not judged, never taken for an accepted one."""
    root = copy_sample("hello")
    write(root, "submissions/mixed/either.py",
          "# @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED\nprint(f'Hello {input()}!')\n")
    write(root, "submissions/mixed/wrong.py", "# @EXPECTED_RESULTS@: WRONG_ANSWER\nprint(1)\n")
    write(root, "submissions/domjudge/untagged.py", "print(1)\n")
    code, problem = run_json(["-p", "submissions", "-s", "mixed|domjudge", str(root)], capsys)
    rows = {row["submission"]: row["verdict"] for row in problem["submissions"]}
    assert rows == {"submissions/mixed/either.py": "AC", "submissions/mixed/wrong.py": "WA"}
    assert code == 0 and not [f for f in problem["findings"] if f["severity"] == "error"]


SUBMISSIONS_YAML_CASES = [
    ("group-rule", "wrong_answer/int32.c:\n  sample:\n    permitted: [AC]\n",
     "submissions.yaml for 'sample' permits only AC"),
    ("message", "wrong_answer/int32.c:\n  message: no such message anywhere\n",
     "no judge message contains"),
]


@pytest.mark.parametrize(("name", "rules", "text"), SUBMISSIONS_YAML_CASES,
                         ids=[c[0] for c in SUBMISSIONS_YAML_CASES])
def test_submissions_yaml_group_rules_and_messages(copy_sample: Callable[..., Path], capsys: Capture,
                                                   name: str, rules: str, text: str) -> None:
    root = copy_sample("different")
    append(root, "submissions/submissions.yaml", rules)
    code, problem = run_json(["-p", "submissions", "-s", "(int32|diff.cpp)", str(root)], capsys)
    assert code == 1
    assert any(text in f["message"] and f["path"] == "submissions/wrong_answer/int32.c"
               for f in problem["findings"]), problem["findings"]


def test_submissions_yaml_message_found(copy_sample: Callable[..., Path], capsys: Capture) -> None:
    root = copy_sample("different")
    append(root, "submissions/submissions.yaml", "wrong_answer/int32.c:\n  message: got '\n")
    code, problem = run_json(["-p", "submissions", "-s", "(int32|diff.cpp)", str(root)], capsys)
    assert code == 0, problem["findings"]


SLOW_DIFF = """import sys, time
start = time.process_time()
while time.process_time() - start < 1.2:
    pass
for line in sys.stdin:
    a, b = map(int, line.split())
    print(abs(a - b))
"""


def test_use_for_time_limit_false_excludes_a_slow_accepted(copy_sample: Callable[..., Path],
                                                          capsys: Capture) -> None:
    root = copy_sample("different")
    write(root, "submissions/accepted/slowish.py", SLOW_DIFF)
    args = ["-p", "submissions", "-s", "accepted/(slowish|diff.cpp)", "-d", "sample/1", str(root)]
    _, timed = run_json(args, capsys)
    assert timed["time_limit"] == 3  # 1.2 s x ac_to_time_limit 2.0, to whole seconds
    append(root, "submissions/submissions.yaml", "accepted/slowish.py:\n  use_for_time_limit: false\n")
    _, untimed = run_json(args, capsys)
    assert untimed["time_limit"] == 1


@pytest.mark.parametrize(("ctd", "errors"), [('REGEX("[A-Za-z]{1,20}") NEWLINE\n', 0),
                                             ('REGEX("[a-z]{1,20}") NEWLINE\n', 5)])
def test_checktestdata_validator(copy_sample: Callable[..., Path], capsys: Capture, ctd: str,
                                 errors: int) -> None:
    root = copy_sample("hello")
    write(root, "input_validators/hello.ctd", ctd)
    _, problem = run_json(["-p", "validators", str(root)], capsys)
    rejected = [f for f in problem["findings"] if "input validator hello rejects" in f["message"]]
    assert len(rejected) == errors
    assert all("\n" not in f["message"] for f in problem["findings"])


CHECKER = """#include <cstdio>
#include <cstring>
#include "greeting.h"
int main(int argc, char **argv) {
    char want[256] = {0}, got[256] = {0};
    FILE *ans = std::fopen(argv[2], "r");
    if (!ans || !std::fgets(want, sizeof want, ans) || !std::fgets(got, sizeof got, stdin))
        return 43;
    return same_greeting(want, got) ? 42 : 43;
}
"""
GREETING_H = """#pragma once
#include <cstring>
inline bool same_greeting(const char *a, const char *b) { return std::strcmp(a, b) == 0; }
"""


def test_a_validator_with_its_header_and_notes_beside_it_is_one_program(
        copy_sample: Callable[..., Path], capsys: Capture) -> None:  # fmt: skip
    """The testlib layout: output_validators/checker.cpp with its header beside it (and a
    README): the header is the checker's, the note no program; the checker judges."""
    root = copy_sample("hello")
    append(root, "problem.yaml", "validation: custom\n")
    write(root, "output_validators/checker.cpp", CHECKER)
    write(root, "output_validators/greeting.h", GREETING_H)
    write(root, "output_validators/README.txt", "The checker compares the greeting.\n")
    code, problem = run_json(["-p", "validators,submissions", "-s", "hello\\.c$|world", str(root)],
                             capsys)  # fmt: skip
    assert [f["message"] for f in problem["findings"] if f["severity"] == "error"] == []
    rows = {row["submission"].rsplit("/", 1)[-1]: row["verdict"] for row in problem["submissions"]}
    assert rows == {"hello.c": "AC", "world.py": "WA"} and code == 0


@pytest.mark.parametrize(("ctd", "rejected"), [('REGEX("Hello [A-Za-z]+!") NEWLINE\n', 0),
                                               ('REGEX("Hi [A-Za-z]+!") NEWLINE\n', 6)])
def test_a_checktestdata_answer_validator(copy_sample: Callable[..., Path], capsys: Capture,
                                          ctd: str, rejected: int) -> None:  # fmt: skip
    """BAPCtools' answer_validators/ may be checktestdata files, as its input validators."""
    root = copy_sample("hello")
    write(root, "answer_validators/answer.ctd", ctd)
    _, problem = run_json(["-p", "validators", str(root)], capsys)
    found = [f for f in problem["findings"] if "answer validator answer rejects" in f["message"]]
    assert len(found) == rejected
    assert not [f for f in problem["findings"] if "cannot tell the language" in f["message"]]


@pytest.mark.parametrize("bound", ["1000", "{{max_n}}"])  # (2025-09: constants substituted)
def test_a_checktestdata_input_validator_in_a_2025_09_package(
        copy_sample: Callable[..., Path], capsys: Capture, bound: str) -> None:  # fmt: skip
    root = copy_sample("gensum")
    write(root, "input_validators/count.ctd", f'INT(1, {bound}) NEWLINE\nREGEX("[-0-9 ]+") NEWLINE\n')
    code, problem = run_json(["-p", "validators", str(root)], capsys)
    assert [f["message"] for f in problem["findings"] if f["severity"] == "error"] == []
    assert code == 0


def test_a_second_run_of_an_unchanged_package_runs_nothing(
        copy_sample: Callable[..., Path], capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    from problemtools_py.sandbox import client as sandbox

    root = copy_sample("divisor")
    code, first = run_json([str(root)], capsys)
    assert code == 0, first["findings"]
    calls: list[object] = []

    def counted(name: str) -> Callable[..., object]:
        real = getattr(sandbox.Sandbox, name)

        def counting(self: sandbox.Sandbox, *args: object, **kwargs: object) -> object:
            calls.append(args)
            return real(self, *args, **kwargs)

        return counting

    for name in ("run", "run_lean"):  # (a held jail's runs go straight to its init)
        monkeypatch.setattr(sandbox.Sandbox, name, counted(name))
    code, second = run_json([str(root)], capsys)
    assert code == 0 and second["submissions"] == first["submissions"]
    assert calls == []  # builds, validator verdicts and judging results all came from the cache
    write(root, "data/secret/3.ans", "4\n")  # a changed answer is judged again
    run_json([str(root)], capsys)
    assert calls


@pytest.mark.parametrize(("bail", "thread"), [(False, "checks"), (True, "MainThread")])
def test_checks_beside_the_running_parts_keep_the_parts_order(
    monkeypatch: pytest.MonkeyPatch, bail: bool, thread: str
) -> None:
    """With programs running (a context), the checks go in a thread of their own
    unless --bail-on-error needs each part's errors first; the findings come out in the
    parts' order either way: a part's static findings, then its runs'."""
    import threading

    from problemtools_py.checks import PARTS
    from problemtools_py.findings import Finding, ProblemReport, warning
    from problemtools_py.model import load_problem
    from problemtools_py.verify import steps, verifier
    from problemtools_py.verify.options import RUNNING_PARTS

    where: set[str] = set()

    def checks_of(part: str) -> list[Callable[[object], list[Finding]]]:
        def check(_problem: object) -> list[Finding]:
            where.add(threading.current_thread().name)
            return [warning("static", part)]

        return [check]

    def run_part(_ctx: object, part: str, out: steps.RunOutput) -> None:
        out.findings.append(warning("run", part))

    monkeypatch.setattr(verifier, "checks_of", checks_of)
    monkeypatch.setattr(steps, "run_part", run_part)
    problem = load_problem(SAMPLES / "hello")
    report = ProblemReport(problem.short_name, str(problem.root))
    verifier._run_parts(problem, report, PARTS, bail, None, object(), 0.0)  # type: ignore[arg-type]
    expected = [(kind, part) for part in PARTS for kind in ("static", "run")
                if kind == "static" or part in RUNNING_PARTS]
    assert [(f.check, f.message) for f in report.findings] == expected
    assert where == {thread}


@pytest.mark.parametrize(
    ("name", "text", "error"),
    [
        ("hello", "limits: [1, 2\n", "YAML syntax error"),
        ("hello", "- a list\n- not a mapping\n", "must be a mapping of keys to values"),
    ],
)
def test_an_unreadable_problem_yaml_runs_nothing(
    copy_sample: Callable[..., Path], capsys: Capture, name: str, text: str, error: str
) -> None:
    """Its error, and one warning that the running parts did not run (as problemtools
    stops there): not verdicts judged under defaults the file may not have meant."""
    path = copy_sample(name)
    yaml = path / "problem.yaml"
    yaml.write_text(text if text.startswith("-") else yaml.read_text() + text)
    code, problem = run_json([str(path)], capsys)
    found = [(f["severity"], f["check"], f["path"]) for f in problem["findings"]]
    assert code == 1 and found == [("error", "problem-yaml", "problem.yaml"),
                                   ("warning", "problem-yaml", "problem.yaml")], problem["findings"]  # fmt: skip
    assert error in problem["findings"][0]["message"]
    assert problem["findings"][1]["message"].startswith("validators, graders, submissions not run")
    assert problem["submissions"] == []
    code, problem = run_json(["--no-run", str(path)], capsys)  # (nothing was to run)
    assert [f["severity"] for f in problem["findings"]] == ["error"]


def _interrupt_a_long_verification(root: Path, tmp_path: Path, *flags: str) -> tuple[str, str]:
    """verifyproblem on ``root`` (its expected-TLE runs burning a 200 s margin), SIGINT
    5 s in; its output, once it has ended with exit 130 leaving no program of the sandbox."""
    write(root, ".timelimit", "100\n")
    command = [str(Path(sys.executable).parent / "verifyproblem"), *flags, str(root)]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}  # (no cached verdicts)
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,  # (its group, for the kill below should it hang)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # (as in a terminal)
    )  # fmt: skip
    try:
        time.sleep(5)  # (the burns have started: the TLE runs go first)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=100)  # (waiting for the runs: 200 s)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # (only if it is still there)
    assert process.returncode == 130, err
    assert err.strip().endswith("verifyproblem: interrupted")
    assert stray_processes() == []
    return out, err


LONG_RUNS = "every expected-TLE submission runs up to 200 s per test case"


def test_ctrl_c_ends_every_run_at_once_and_reports_what_had_finished(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    """SIGINT while expected-TLE submissions burn a 200 s margin: the command ends within
    seconds, with the static findings (here the long-run warning that says why it was
    slow) and the summary marked interrupted."""
    root = copy_sample("hello")
    out, _ = _interrupt_a_long_verification(root, tmp_path)
    assert LONG_RUNS in out
    assert f"{root.name}: 0 errors, 1 warning (interrupted: what had finished)" in out


def test_ctrl_c_with_json_prints_what_had_finished_marked_interrupted(
    copy_sample: Callable[..., Path], tmp_path: Path
) -> None:
    """--json at Ctrl-C: one valid document, exit code 130, the problems that had ended
    (here the first, clean) and the one cut short with its static findings; --report's
    page the same, marked so."""
    first, root = copy_sample("average"), copy_sample("hello")
    page = tmp_path / "page.html"
    out, _ = _interrupt_a_long_verification(
        root, tmp_path, "--json", "--report", str(page), str(first)
    )
    html = page.read_text(encoding="utf-8")
    assert "average <small>" in html and "interrupted: what had finished" in html
    report = json.loads(out)
    jsonschema.validate(report, load_schema("report"))
    assert (report["exit_code"], report["interrupted"]) == (130, True)
    done, cut = report["problems"]
    assert (done["path"], done["interrupted"], done["findings"]) == (str(first), False, [])
    assert (cut["path"], cut["interrupted"]) == (str(root), True)
    assert [f["message"][: len(LONG_RUNS)] for f in cut["findings"]] == [LONG_RUNS]
