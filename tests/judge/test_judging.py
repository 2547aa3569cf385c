"""Every verdict in every language, custom validators, interactive and multi-pass
problems, through the real sandbox and compilers."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.judgekit import Kit
from helpers.packages import SAMPLES

from problemtools_py.judge.held import HeldJail
from problemtools_py.judge.judging import CaseJudge, run_limits, with_peers_wait
from problemtools_py.judge.validators import CustomValidator, DatasetValidator, DefaultValidator
from problemtools_py.sandbox.results import Limits, Outcome, RunResult
from problemtools_py.verdicts import Verdict

LIMITS = Limits(cpu_seconds=1.0, memory_bytes=256 << 20, output_bytes=1 << 20)
HELLO = SAMPLES / "hello"

# name -> (file name, source) per language, each reading a name and greeting it.
PROGRAMS: dict[str, dict[str, tuple[str, str]]] = {
    "c": {
        "AC": ("a.c", '#include <stdio.h>\nint main(void){char s[64];scanf("%63s",s);printf("Hello %s!\\n",s);return 0;}'),
        "WA": ("a.c", '#include <stdio.h>\nint main(void){puts("Goodbye!");return 0;}'),
        "TLE": ("a.c", "int main(void){volatile long x=0;for(;;)x++;}"),
        "RTE": ("a.c", "#include <stdlib.h>\nint main(void){abort();}"),
        "MLE": ("a.c", "#include <stdlib.h>\nint main(void){size_t n=(size_t)1<<30;volatile char*p=malloc(n);for(size_t i=0;i<n;i+=4096)p[i]=1;return p[n-1];}"),
        "OLE": ("a.c", '#include <stdio.h>\nint main(void){for(;;)puts("Hello World!");}'),
        "CE": ("a.c", "int main(void){ return x; }"),
    },
    "cpp": {
        "AC": ("a.cpp", '#include <iostream>\n#include <string>\nint main(){std::string s;std::cin>>s;std::cout<<"Hello "<<s<<"!\\n";}'),
        "WA": ("a.cpp", '#include <iostream>\nint main(){std::cout<<"Hi\\n";}'),
        "TLE": ("a.cpp", "int main(){volatile long x=0;for(;;)x++;}"),
        "RTE": ("a.cpp", "#include <stdexcept>\nint main(){throw std::runtime_error(\"boom\");}"),
        "MLE": ("a.cpp", "#include <vector>\nint main(){std::vector<char> v(1ul<<30,1);return v[12345]==1?0:1;}"),
        "OLE": ("a.cpp", '#include <cstdio>\nint main(){for(;;)std::puts("Hello World!");}'),
        "CE": ("a.cpp", "int main(){ return undefined_name; }"),
    },
    "python3": {
        "AC": ("a.py", 'print(f"Hello {input().strip()}!")'),
        "WA": ("a.py", 'print("Hello nobody")'),
        "TLE": ("a.py", "while True:\n    pass"),
        "RTE": ("a.py", "import sys\nsys.exit(3)"),
        "MLE": ("a.py", "x = bytearray(1 << 30)\nprint(len(x))"),
        "OLE": ("a.py", "while True:\n    print('Hello World!' * 100)"),
        "CE": ("a.py", "def f(:\n    pass"),
    },
    "java": {
        "AC": ("Main.java", 'public class Main{public static void main(String[] a){System.out.println("Hello "+new java.util.Scanner(System.in).next()+"!");}}'),
        "WA": ("Main.java", 'public class Main{public static void main(String[] a){System.out.println("Hej");}}'),
        "TLE": ("Main.java", "public class Main{public static void main(String[] a){long x=0;while(true){x++;}}}"),
        "RTE": ("Main.java", "public class Main{public static void main(String[] a){int[] x=new int[1];x[2]=1;}}"),
        "MLE": ("Main.java", "public class Main{public static void main(String[] a){java.util.List<long[]> l=new java.util.ArrayList<>();while(true)l.add(new long[1<<20]);}}"),
        "OLE": ("Main.java", 'public class Main{public static void main(String[] a){while(true)System.out.println("Hello World!");}}'),
        "CE": ("Main.java", "public class Main{public static void main(String[] a){int x = ;}}"),
    },
}
CASES = [(lang, verdict) for lang, table in PROGRAMS.items() for verdict in table]


@pytest.mark.parametrize("jail", ["fresh", "held", "lean"])
@pytest.mark.parametrize(("lang", "verdict"), CASES, ids=[f"{lang}-{v}" for lang, v in CASES])
def test_every_verdict_in_every_language(kit: Kit, tmp_path: Path, lang: str, verdict: str,
                                         jail: str) -> None:
    """In a jail of its own per run, and in a jail held for the program's runs, lean with
    a forked or a fresh init (judge/held.py: as verifyproblem judges a submission's test
    cases)."""
    name, source = PROGRAMS[lang][verdict]
    build = kit.builder.build(kit.languages.get(lang), {name: source.encode()})  # type: ignore[arg-type]
    if verdict == "CE":
        assert build.executable is None and build.message
        return
    exe = build.executable
    assert exe is not None, build.message
    with HeldJail(kit.pool, exe, run_limits(LIMITS, exe), fresh=jail == "lean") as held:
        judge = CaseJudge(kit.pool, DefaultValidator([]), LIMITS,
                          held=held if jail != "fresh" else None)
        for attempt in range(2 if jail != "fresh" else 1):  # (a held jail: again, the same)
            result = judge.judge(exe, HELLO / "data/secret/02.in", HELLO / "data/secret/02.ans",
                                 tmp_path / str(attempt))
            assert result.verdict.value == verdict, (result.message, result.run)
        if jail != "fresh":
            assert held.box().lean_open and held._fresh_open is (jail == "lean")  # (init: fresh)


# Programs that python3 prog.py runs right and that failed here before 2026-12 (issue 39):
# exit() and quit() are site's builtins, python3 waits for a thread never joined and runs
# atexit handlers, help and copyright are builtins too.
AS_PYTHON3 = {
    "exit": 'print(f"Hello {input().strip()}!")\nexit()\n',
    "quit": 'print(f"Hello {input().strip()}!")\nquit(0)\n',
    "thread": "import sys, threading\ndef main():\n    print(f'Hello {input().strip()}!')\n"
              "sys.setrecursionlimit(1 << 20)\nthreading.stack_size(1 << 26)\n"
              "threading.Thread(target=main).start()\n",
    "atexit": "import atexit\nname = input().strip()\n"
              "atexit.register(lambda: print(f'Hello {name}!'))\n",
    "help": '_ = (help, copyright, credits, license)\nprint(f"Hello {input().strip()}!")\n',
}


@pytest.mark.parametrize("jail", ["fresh", "held", "lean"])
@pytest.mark.parametrize("name", AS_PYTHON3)
def test_python_runs_as_python3_does_in_every_jail(kit: Kit, tmp_path: Path, jail: str,
                                                   name: str) -> None:  # fmt: skip
    """Started afresh or run in a held jail's init (forked or fresh), a Python program
    lives as under python3 prog.py: each of these is accepted."""
    source = AS_PYTHON3[name].encode()
    exe = kit.builder.build(kit.languages.get("python3"), {"a.py": source}).executable  # type: ignore[arg-type]
    assert exe is not None
    with HeldJail(kit.pool, exe, run_limits(LIMITS, exe), fresh=jail == "lean") as held:
        judge = CaseJudge(kit.pool, DefaultValidator([]), LIMITS,
                          held=held if jail != "fresh" else None)
        result = judge.judge(exe, HELLO / "data/secret/02.in", HELLO / "data/secret/02.ans",
                             tmp_path)
    assert result.verdict is Verdict.AC, (result.message, result.run)


@pytest.mark.parametrize("keep", [False, True])
def test_the_default_validator_writes_feedback_only_to_be_kept(
        kit: Kit, tmp_path: Path, keep: bool) -> None:
    """No feedback directory per case for the default validator (its message is the
    result's), unless a visualizer will read it: then judgemessage.txt and
    diffposition.txt, as a validator program would leave them."""
    exe = kit.build(*PROGRAMS["python3"]["WA"])
    result = CaseJudge(kit.pool, DefaultValidator([]), LIMITS, keep_feedback=keep).judge(
        exe, HELLO / "data/sample/1.in", HELLO / "data/sample/1.ans", tmp_path)
    assert result.verdict is Verdict.WA and result.message
    feedback = tmp_path / "feedback"
    assert feedback.is_dir() is keep
    if keep:
        assert (feedback / "judgemessage.txt").read_text() == result.message + "\n"
        assert (feedback / "diffposition.txt").read_text().split()[0].isdigit()


def test_java_rte_is_not_mle_for_an_uncaught_exception(kit: Kit, tmp_path: Path) -> None:
    exe = kit.build(*PROGRAMS["java"]["RTE"])
    result = CaseJudge(kit.pool, DefaultValidator([]), LIMITS).judge(
        exe, HELLO / "data/sample/1.in", HELLO / "data/sample/1.ans", tmp_path)
    assert result.verdict is Verdict.RTE and "exit code 1" in result.message
    assert "java.lang.OutOfMemoryError" not in result.message
    assert "java.lang.ArrayIndexOutOfBoundsException" in result.message


@pytest.mark.parametrize(("name", "source"), [
    ("boolfind-test-correct.java",  # (DOMjudge's example: a class Main in a file of its own name)
     "import java.util.*;\nclass Main { public static void main(String[] a) {"
     " System.out.println(\"Hello \" + new Scanner(System.in).next() + \"!\"); } }\n"),
    ("solve.scala",
     "object Solution { def main(a: Array[String]): Unit ="
     " println(\"Hello \" + scala.io.StdIn.readLine() + \"!\") }\n"),
])  # fmt: skip
def test_a_package_program_runs_the_class_its_source_names(kit: Kit, tmp_path: Path, name: str,
                                                          source: str) -> None:  # fmt: skip
    """Issue 60, item 4 on the judge's path: java runs the class holding main, not the
    file's stem (DOMjudge's boolfind: 'could not find or load main class')."""
    language = kit.languages.get("scala" if name.endswith(".scala") else "java")
    if language is None or language.missing_tool() is not None:
        pytest.skip(f"{name}: its toolchain is not installed")
    exe = kit.build(name, source)
    result = CaseJudge(kit.pool, DefaultValidator([]), LIMITS).judge(
        exe, HELLO / "data/sample/1.in", HELLO / "data/sample/1.ans", tmp_path)
    assert result.verdict is Verdict.AC, result.message


def test_compilation_is_cached_by_content(kit: Kit) -> None:
    lang = kit.languages.get("c")
    assert lang is not None
    first = kit.builder.build(lang, {"x.c": b"int main(void){return 0;}\n/* cache probe */"})
    second = kit.builder.build(lang, {"x.c": b"int main(void){return 0;}\n/* cache probe */"})
    assert not first.cached and second.cached
    assert first.executable == second.executable


def test_compiler_cannot_read_test_answers(kit: Kit, tmp_path: Path) -> None:
    secret = tmp_path / "answer.txt"
    secret.write_text("int leaked = 1;\n")
    tmp_path.chmod(0o755)
    build = kit.builder.build(kit.languages.get("c"),  # type: ignore[arg-type]
                              {"a.c": f'#include "{secret}"\nint main(void){{return leaked;}}'.encode()})
    assert build.executable is None and "No such file or directory" in build.message


def _divisor_validator(kit: Kit, source: str | None = None, scoring: bool = False) -> CustomValidator:
    code = source or (SAMPLES / "divisor/output_validators/divisor_checker/checker.py").read_text()
    return CustomValidator(kit.build("checker.py", code), Limits(cpu_seconds=10), scoring=scoring)


@pytest.mark.parametrize(("submission", "case", "verdict"), [
    ("accepted/smallest.py", "secret/2", Verdict.AC),
    ("accepted/largest.cpp", "secret/3", Verdict.AC),
    ("wrong_answer/one.py", "sample/1", Verdict.WA),
    ("run_time_error/recurse.py", "secret/2", Verdict.RTE),
])
def test_custom_output_validator(kit: Kit, tmp_path: Path, submission: str, case: str,
                                 verdict: Verdict) -> None:
    exe = kit.build_file(SAMPLES / "divisor/submissions" / submission)
    data = SAMPLES / "divisor/data" / case
    result = CaseJudge(kit.pool, _divisor_validator(kit), LIMITS).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is verdict
    if verdict is Verdict.WA:
        assert "1 is not a proper divisor of 12" in result.message


@pytest.mark.parametrize(("validator", "why"), [
    ("import sys\nsys.exit(0)", "exit code 0"),
    ("raise SystemExit('validator bug')", "validator bug"),
    ("import sys, os\nopen(os.path.join(sys.argv[3], 'score.txt'), 'w').write('5')\nsys.exit(42)",
     "does not use validator scores"),
    ("import sys, os\nopen(os.path.join(sys.argv[3], 'score.txt'), 'w').write('5')\nsys.exit(43)",
     "score.txt with a wrong answer"),
    ("while True:\n    pass", "CPU"),
])
def test_misbehaving_validators_are_judge_errors(kit: Kit, tmp_path: Path, validator: str, why: str) -> None:
    exe = kit.build_file(SAMPLES / "divisor/submissions/accepted/smallest.py")
    checker = CustomValidator(kit.build("v.py", validator), Limits(cpu_seconds=1))
    data = SAMPLES / "divisor/data/sample/1"
    result = CaseJudge(kit.pool, checker, LIMITS).judge(exe, data.with_suffix(".in"),
                                                        data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.JE and why in result.message


def test_validator_score_on_a_scoring_problem(kit: Kit, tmp_path: Path) -> None:
    source = "import sys, os\nopen(os.path.join(sys.argv[3], 'score.txt'), 'w').write('17.5\\n')\nsys.exit(42)"
    exe = kit.build_file(SAMPLES / "divisor/submissions/accepted/smallest.py")
    data = SAMPLES / "divisor/data/sample/1"
    result = CaseJudge(kit.pool, _divisor_validator(kit, source, scoring=True), LIMITS).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.AC and result.score == 17.5


def test_validator_symlinked_feedback_is_not_followed(kit: Kit, tmp_path: Path) -> None:
    source = ("import sys, os\nos.symlink('/etc/passwd', os.path.join(sys.argv[3], 'judgemessage.txt'))"
              "\nsys.exit(43)")
    exe = kit.build_file(SAMPLES / "divisor/submissions/accepted/smallest.py")
    data = SAMPLES / "divisor/data/sample/1"
    result = CaseJudge(kit.pool, _divisor_validator(kit, source), LIMITS).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.WA and "root:" not in result.message


def _guess_validator(kit: Kit) -> CustomValidator:
    code = (SAMPLES / "guess/output_validators/guess_validator/validate.py").read_text()
    return CustomValidator(kit.build("validate.py", code), Limits(cpu_seconds=5))


@pytest.mark.parametrize(("submission", "case", "verdict"), [
    ("accepted/binary.py", "secret/4", Verdict.AC),
    ("accepted/binary.cpp", "sample/2", Verdict.AC),
    ("wrong_answer/linear.py", "secret/4", Verdict.WA),
    ("wrong_answer/linear.py", "secret/1", Verdict.AC),
    ("run_time_error/crash.py", "secret/2", Verdict.RTE),
    ("time_limit_exceeded/think.py", "secret/2", Verdict.TLE),
])
def test_interactive_problem(kit: Kit, tmp_path: Path, submission: str, case: str, verdict: Verdict) -> None:
    exe = kit.build_file(SAMPLES / "guess/submissions" / submission)
    data = SAMPLES / "guess/data" / case
    judge = CaseJudge(kit.pool, _guess_validator(kit), LIMITS, interactive=True)
    result = judge.judge(exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is verdict, result.message


def test_interactive_validator_crash_is_je(kit: Kit, tmp_path: Path) -> None:
    exe = kit.build_file(SAMPLES / "guess/submissions/accepted/binary.py")
    broken = CustomValidator(kit.build("v.py", "print(500)\nraise SystemExit(2)"), Limits(cpu_seconds=5))
    data = SAMPLES / "guess/data/sample/1"
    result = CaseJudge(kit.pool, broken, LIMITS, interactive=True).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.JE


# An interactive validator that keeps talking: it writes before it reads, and again after.
CHATTY = """import sys
for word in ("start", "more", "x" * 100000):
    print(word, flush=True)
    line = sys.stdin.readline()
    if not line:
        sys.exit(43)
sys.exit(42)
"""


@pytest.mark.parametrize("code", ["pass", "raise SystemExit(0)", "print('ok')"])
def test_a_submission_that_leaves_early_is_wrong_not_a_judge_error(
        kit: Kit, tmp_path: Path, code: str) -> None:
    """The validator writing after the submission left is neither killed by SIGPIPE nor
    blocked on a full pipe (as problemtools and BAPCtools judge it: WA)."""
    validator = CustomValidator(kit.build("chatty.py", CHATTY), Limits(cpu_seconds=5))
    exe = kit.build("leave.py", code + "\n")
    data = SAMPLES / "guess/data/sample/1"
    result = CaseJudge(kit.pool, validator, LIMITS, interactive=True).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.WA, result.message


def _twopass(kit: Kit, submission: str, passes: int, tmp_path: Path) -> object:
    validator = CustomValidator(kit.build_file(SAMPLES / "twopass/output_validator/validate.py"),
                                Limits(cpu_seconds=5))
    exe = kit.build_file(SAMPLES / "twopass/submissions" / submission)
    data = SAMPLES / "twopass/data/secret/2"
    return CaseJudge(kit.pool, validator, LIMITS, passes=passes).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)


def test_multi_pass_accepted_in_two_passes(kit: Kit, tmp_path: Path) -> None:
    result = _twopass(kit, "accepted/twopass.c", 2, tmp_path)
    assert result.verdict is Verdict.AC and result.passes == 2  # type: ignore[attr-defined]


def test_multi_pass_wrong_in_the_second_pass(kit: Kit, tmp_path: Path) -> None:
    result = _twopass(kit, "wrong_answer/onepass.py", 2, tmp_path)
    assert result.verdict is Verdict.WA and "pass 2" in result.message  # type: ignore[attr-defined]


def test_multi_pass_over_the_pass_limit_is_je(kit: Kit, tmp_path: Path) -> None:
    result = _twopass(kit, "accepted/twopass.py", 1, tmp_path)
    assert result.verdict is Verdict.JE and "validation_passes" in result.message  # type: ignore[attr-defined]


def test_dataset_checker(kit: Kit, tmp_path: Path) -> None:
    exe = kit.build("a.py", "print('YES', 2.0000000001, 3.000)")
    answer = tmp_path / "ans"
    answer.write_text("yes 2.0 3\n")
    empty = tmp_path / "in"
    empty.write_text("")
    judge = CaseJudge(kit.pool, DatasetValidator(), LIMITS)
    assert judge.judge(exe, empty, answer, tmp_path / "w").verdict is Verdict.AC
    shutil.copy(answer, tmp_path / "ans2")
    (tmp_path / "ans2").write_text("yes 2.0 4\n")
    assert judge.judge(exe, empty, tmp_path / "ans2", tmp_path / "w2").verdict is Verdict.WA


def test_submission_cannot_read_the_answer_of_its_own_test(kit: Kit, tmp_path: Path) -> None:
    answer = HELLO / "data/secret/02.ans"
    exe = kit.build("a.py", f"print(open({str(answer)!r}).read())")
    result = CaseJudge(kit.pool, DefaultValidator([]), LIMITS).judge(
        exe, HELLO / "data/secret/02.in", answer, tmp_path)
    assert result.verdict is Verdict.RTE
    assert b"No such file or directory" in result.run.stderr  # type: ignore[union-attr]


def test_python_submissions_run_in_process_when_versions_match(kit: Kit, tmp_path: Path) -> None:
    exe = kit.build("a.py", "import sys\nprint('Hello', sys.stdin.readline().strip() + '!')")
    assert exe.inprocess
    with kit.pool.sandbox() as box:
        matches = box.python_matches()
    result = CaseJudge(kit.pool, DefaultValidator([]), LIMITS).judge(
        exe, HELLO / "data/secret/02.in", HELLO / "data/secret/02.ans", tmp_path)
    assert result.verdict is Verdict.AC
    python3 = shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")
    assert python3 is not None
    found = subprocess.run([python3, "-c", "import sys; print(*sys.version_info[:2])"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert matches == (tuple(map(int, found)) == sys.version_info[:2])


PASS_INPUT = """import os, sys
words = open(sys.argv[1]).read().split()
feedback = sys.argv[3]
with open(os.path.join(feedback, "judgemessage.txt"), "a") as f:
    f.write("validator input: " + " ".join(words) + "\\n")
if words[0] == "1":
    open(os.path.join(feedback, "nextpass.in"), "w").write("2 7\\n")
    sys.exit(42)
sys.exit(42 if words == ["2", "7"] else 43)
"""


def test_each_pass_gives_the_validator_that_pass_input(kit: Kit, tmp_path: Path) -> None:
    """As problemtools and BAPCtools do: the validator's input file is the pass's input
    (nextpass.in of the previous pass), not the test case's .in every time."""
    validator = CustomValidator(kit.build("passes.py", PASS_INPUT), Limits(cpu_seconds=5))
    exe = kit.build("echo.py", "print(input())\n")
    data = SAMPLES / "twopass/data/secret/2"
    result = CaseJudge(kit.pool, validator, LIMITS, passes=2).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.AC and result.passes == 2, result.message
    assert "validator input: 2 7" in result.message



def test_output_after_the_validator_accepted_is_dropped(kit: Kit, tmp_path: Path) -> None:
    """A submission writing on after the validator accepted and left (more than a pipe
    holds) is accepted, not killed by SIGPIPE: problemtools and BAPCtools judge it so
    (BAPCtools' guessnoeofcheck has one in accepted/)."""
    code = ("print(1, flush=True)\ninput()\nimport time\ntime.sleep(0.3)\n"
            "print('extra ' * 30000, flush=True)")
    exe = kit.build("extra.py", code + "\n")
    data = SAMPLES / "guess/data/secret/1"  # the number is 1
    # it does not wait for the end of the submission's output
    hasty = "import sys\nok = sys.stdin.readline().strip() == '1'\nprint('correct', flush=True)\n"
    validator = CustomValidator(kit.build("hasty.py", hasty + "sys.exit(42 if ok else 43)\n"),
                                Limits(cpu_seconds=5))
    result = CaseJudge(kit.pool, validator, LIMITS, interactive=True).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert result.verdict is Verdict.AC, result.message


@pytest.mark.parametrize(("code", "verdict", "final"), [
    # correct, then spinning: the validator accepted, the submission runs out its time
    ("print(1, flush=True)\ninput()\nwhile True:\n    pass", Verdict.TLE, False),
    # not a number, then spinning: the validator rejected first; that stands
    ("print('x', flush=True)\nwhile True:\n    pass", Verdict.WA, True),
])
def test_what_an_interactive_submission_does_after_the_verdict(
        kit: Kit, tmp_path: Path, code: str, verdict: Verdict, final: bool) -> None:
    exe = kit.build("after.py", code + "\n")
    data = SAMPLES / "guess/data/secret/1"  # the number is 1
    result = CaseJudge(kit.pool, _guess_validator(kit), LIMITS, interactive=True).judge(
        exe, data.with_suffix(".in"), data.with_suffix(".ans"), tmp_path)
    assert (result.verdict, result.final) == (verdict, final), result.message


def _timed(wall_killed: bool, queued: float | None, cpu: float = 0.01,
           wall: float = 3.0) -> RunResult:  # fmt: skip
    return RunResult(outcome=Outcome.TLE if wall_killed else Outcome.OK, exit_code=None,
                     signal=None, cpu_seconds=cpu, wall_seconds=wall, peak_memory_bytes=0,
                     output_bytes=0, wall_killed=wall_killed, queued_seconds=queued)  # fmt: skip


@pytest.mark.parametrize(
    ("sub", "val", "starved"),
    [
        (_timed(True, 0.001), _timed(False, 0.001), False),  # both slept: a deadlock
        (_timed(True, 0.001), _timed(False, 2.0), True),  # its validator was kept waiting
        (_timed(True, 0.001), _timed(False, None), True),  # the validator's wait unknown
        (_timed(True, 2.5), _timed(False, 0.001), True),  # it was kept waiting itself
        (_timed(False, 0.001), _timed(False, 2.0), False),  # not stopped: nothing to tell
    ],
)
def test_an_interactive_run_owns_its_wall_clock_stop_only_if_its_validator_slept_too(
    sub: RunResult, val: RunResult, starved: bool
) -> None:
    assert with_peers_wait(sub, val).starved is starved


@pytest.mark.parametrize(
    ("sub", "val", "shared", "starved"),
    [
        # kept waiting while its validator ran on their one core: its own doing
        (_timed(True, 2.5, cpu=0.4), _timed(False, 0.3, cpu=2.4), True, False),
        (_timed(True, 2.5, cpu=0.4), _timed(False, 0.3, cpu=2.4), False, True),
        # kept waiting longer than its validator ran: the machine's
        (_timed(True, 2.5, cpu=0.4), _timed(False, 0.001, cpu=0.1), True, True),
        # its validator kept waiting while the submission ran: the submission's doing
        (_timed(True, 0.001, cpu=2.4), _timed(False, 2.5, cpu=0.1), True, False),
    ],
)
def test_on_one_core_what_a_pair_waited_for_each_other_is_not_starvation(
    sub: RunResult, val: RunResult, shared: bool, starved: bool
) -> None:
    assert with_peers_wait(sub, val, shared).starved is starved
