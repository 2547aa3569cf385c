"""--judge domjudge judges as a DOMjudge judgehost does (DOMjudge a023fd3: its default
languages and build scripts, judgedaemon's verdict order, runguard's limits), on a
package of our own shaped like DOMjudge's example problem hello, whose submissions
probe exactly these rules. Each submission here has the verdict DOMjudge gives it; the
same package verified by the format's rules (Kattis') gives several of them another,
which the second test pins, so that each rule is seen to be DOMjudge's alone.

The rules: ``.pl`` is Perl and every source is syntax-checked; the main file is the one
``submissions.json`` names, else the first source; Java runs the class holding ``main``,
with its package, and none is a compile error; a program runs in its own directory,
which it cannot write; each judging is on a core of its own; the time limit holds for
wall time too; output past the limit is dropped and a run that ends in time is then
OLE (a run still writing at the limit is TLE); no stack limit (a new thread gets glibc's
2 MiB)."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest
from helpers.builders import write

from problemtools_py.cli.verifyproblem import main

Capture = pytest.CaptureFixture[str]
HELLO = "Hello world!\n"
PSVM = "public static void main(String[] args)"
FORKS = r"""#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    int parent = sched_getcpu(), bad = 0;
    for (int i = 0; i < 8; i++)
        if (fork() == 0) {
            volatile unsigned long x = 0;
            for (unsigned long k = 0; k < 30000000UL; k++) x += k;  /* (long enough to move) */
            return sched_getcpu() != parent;
        }
    int status;
    while (wait(&status) > 0) bad |= WEXITSTATUS(status);
    if (bad) return 1;  /* a child ran on another core: RTE */
    puts("all on one core");
    return 0;
}
"""
WRITES = r"""#include <stdio.h>
int main(void) {
    if (fopen("my-local-file.txt", "w") != NULL) return 1;  /* writable: RTE */
    puts("cannot write here");
    return 0;
}
"""
THREADS = r"""#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static void *report(void *unused) {
    pthread_attr_t attr;
    size_t size;
    pthread_attr_init(&attr);
    pthread_attr_getstacksize(&attr, &size);
    if (size != 2 << 20) abort();  /* a stack limit set: RTE */
    return NULL;
}
int main(void) {
    pthread_t thread;
    pthread_create(&thread, NULL, report, NULL);
    pthread_join(thread, NULL);
    puts("a thread's stack is 2 MiB");
    return 0;
}
"""
SLEEPS = "#include <stdio.h>\n#include <unistd.h>\nint main(void) { sleep(3); puts(\"Hello world!\"); }\n"
FLOODS = "#include <stdio.h>\nint main(void) { for (;;) puts(\"Hello world!\"); }\n"
OVER = (
    "/* @EXPECTED_RESULTS@: OUTPUT-LIMIT */\n#include <stdio.h>\nint main(void) { puts(\"Hello world!\");\n"
    "  for (int i = 0; i < 200000; i++) puts(\"..........................\"); }\n"
)


def hello_package(root: Path) -> Path:
    write(root, "problem.yaml", "name: Hello\nlimits:\n  output: 2\n")
    write(root, ".timelimit", "1\n")
    write(root, "problem.pdf", b"%PDF-1.4\n%%EOF\n")
    write(root, "data/sample/1.in", "")
    write(root, "data/sample/1.ans", HELLO)
    write(root, "data/secret/1.in", "")
    write(root, "data/secret/1.ans", HELLO)
    subs = "submissions/"
    write(root, subs + "accepted/hello.pl", 'print "Hello world!\\n";\n')
    # (compiler_error/ and output_limit/ are DOMjudge's: their programs carry the tag)
    write(root, subs + "compiler_error/broken.pl",
          '# @EXPECTED_RESULTS@: COMPILER-ERROR\nprint "Hello world!\\n"\nprint (;\n')  # fmt: skip
    write(root, subs + "accepted/multi-sh/main.sh", ". ./secondary.sh\n")
    write(root, subs + "accepted/multi-sh/secondary.sh", "echo 'Hello world!'\n")
    write(root, subs + "accepted/multi-js/hello.js", "console.log(require('./module.js').text)\n")
    write(root, subs + "accepted/multi-js/module.js", "exports.text = 'Hello world!'\n")
    write(root, subs + "accepted/multi-py/main.py", "import other\n")
    write(root, subs + "accepted/multi-py/other.py", "print('Hello world!')\n")
    write(root, "submissions.json",
          json.dumps({"submissions/accepted/multi-py/": {"entry_point": "main.py"}}))  # fmt: skip
    write(root, subs + "accepted/pkg/A.java",
          'package foo.a;\npublic class A { public static void hi() { System.out.println("Hello world!"); } }\n')  # fmt: skip
    write(root, subs + "accepted/pkg/B.java",
          f"package zoo.b;\nimport foo.a.A;\npublic class B {{ {PSVM} {{ A.hi(); }} }}\n")  # fmt: skip
    write(root, subs + "compiler_error/nomain.java",
          '// @EXPECTED_RESULTS@: COMPILER-ERROR\npublic class nomain { int main() { System.out.println("Hello world!"); return 0; } }\n')  # fmt: skip
    write(root, subs + "wrong_answer/one_core.c", FORKS)
    write(root, subs + "wrong_answer/writes.c", WRITES)
    write(root, subs + "wrong_answer/threads.c", THREADS)
    write(root, subs + "time_limit_exceeded/sleeps.c", SLEEPS)
    write(root, subs + "time_limit_exceeded/floods.c", FLOODS)
    write(root, subs + "output_limit/over.c", OVER)
    return root


def verdicts(root: Path, judge: str, capsys: Capture) -> dict[str, str]:
    main(["--json", "-j", "2", "--judge", judge, "-p", "submissions", str(root)])
    problem = json.loads(capsys.readouterr().out)["problems"][0]
    return {r["submission"].removeprefix("submissions/"): r["verdict"]
            for r in problem["submissions"]}  # fmt: skip


DOMJUDGE = {
    "accepted/hello.pl": "AC",
    "compiler_error/broken.pl": "CE",
    "accepted/multi-sh": "AC",
    "accepted/multi-js": "AC",
    "accepted/multi-py": "AC",
    "accepted/pkg": "AC",
    "compiler_error/nomain.java": "CE",
    "wrong_answer/one_core.c": "WA",
    "wrong_answer/writes.c": "WA",
    "wrong_answer/threads.c": "WA",
    "time_limit_exceeded/sleeps.c": "TLE",
    "time_limit_exceeded/floods.c": "TLE",
    "output_limit/over.c": "OLE",
}


needs_unlimited_hard_stack = pytest.mark.skipif(
    resource.getrlimit(resource.RLIMIT_STACK)[1] != resource.RLIM_INFINITY,
    reason="runguard's unlimited stack needs an unlimited hard limit",
)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hello_package(tmp_path_factory.mktemp("dj") / "hello")


@needs_unlimited_hard_stack
def test_each_submission_has_domjudges_verdict(package: Path, capsys: Capture) -> None:
    assert verdicts(package, "domjudge", capsys) == DOMJUDGE


def test_by_the_formats_rules_several_differ(package: Path, capsys: Capture) -> None:
    got = verdicts(package, "kattis", capsys)
    # .sh is Bash run from /work (no secondary.sh
    # there), two JavaScript files and none main.js: no entry point, B runs as class B
    # (its package unnamed), a program may write its working directory, sleeping is
    # no CPU, a thread's stack is 1 GiB; output past the limit is dropped as DOMjudge
    # does (problemtools compares its size after the run: TLE, RTE, then OLE)
    assert {k: got.get(k) for k in (
        "accepted/multi-sh", "accepted/multi-js", "accepted/pkg",
        "wrong_answer/writes.c", "time_limit_exceeded/sleeps.c", "time_limit_exceeded/floods.c",
        "output_limit/over.c", "wrong_answer/threads.c",
    )} == {
        "accepted/multi-sh": "RTE", "accepted/multi-js": "CE",
        "accepted/pkg": "RTE", "wrong_answer/writes.c": "RTE",
        "time_limit_exceeded/sleeps.c": "AC", "time_limit_exceeded/floods.c": "TLE",
        "output_limit/over.c": "OLE", "wrong_answer/threads.c": "RTE",
    }  # fmt: skip
