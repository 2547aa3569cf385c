"""verifyproblem on packages whose Python programs need python3's whole life (issue 39's
table, on the real command): an accepted solution that ends with exit(), one whose work
is in a thread never joined, one printing from an atexit handler, a C++ solution that
includes <bits/stdc++.h> twice, and a Python input validator that ends with exit(42):
all verify clean. A Python 2 accepted solution is named as such, once, and so are a
Python 2 validator's failures."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.builders import write

BIN = Path(sys.executable).parent

ACCEPTED = {
    "exit.py": 'print(f"Hello {input().strip()}!")\nexit()\n',
    "quit.py": 'import sys\nprint(f"Hello {input().strip()}!")\nquit(0)\n',
    "thread.py": ("import sys, threading\nsys.setrecursionlimit(1 << 20)\n"
                  "threading.stack_size(1 << 26)\n"
                  "def main():\n    print(f'Hello {input().strip()}!')\n"
                  "threading.Thread(target=main).start()\n"),
    "atexit_print.py": ("import atexit\nname = input().strip()\n"
                        "atexit.register(lambda: print(f'Hello {name}!'))\n"),
    "builtins.py": '_ = (help, copyright, credits, license)\nprint(f"Hello {input().strip()}!")\n',
    "twice.cpp": ("#include <bits/stdc++.h>\n#include <bits/stdc++.h>\n#include <iostream>\n"
                  "using namespace std;\nint main() { string s; getline(cin, s); "
                  'cout << "Hello " << s << "!" << endl; }\n'),
}  # fmt: skip


def verifyproblem(*args: str) -> tuple[int, dict[str, Any]]:
    """The real command's exit code and its one problem's JSON report."""
    done = subprocess.run([str(BIN / "verifyproblem"), "--json", *args], capture_output=True,
                          text=True, timeout=600, check=False)  # fmt: skip
    return done.returncode, json.loads(done.stdout)["problems"][0]


def test_programs_that_need_python3s_life_verify_clean(
    copy_sample: Callable[..., Path],
) -> None:
    root = copy_sample("hello")
    for name, source in ACCEPTED.items():
        write(root, f"submissions/accepted/{name}", source)
    write(root, "input_validators/validate.py",
          "import re, sys\nline = sys.stdin.readline()\n"
          "exit(42 if re.fullmatch(r'[A-Za-z]+( [A-Za-z]+)*\\n', line) and not sys.stdin.read() else 43)\n")  # fmt: skip
    code, report = verifyproblem(str(root))
    assert (code, report["findings"]) == (0, [])
    rows = {row["submission"]: row["verdict"] for row in report["submissions"]}
    assert all(rows[f"submissions/accepted/{name}"] == "AC" for name in ACCEPTED), rows


@pytest.mark.parametrize(
    ("source", "sign"),
    [
        ('name = raw_input()\nprint "Hello %s!" % name\n', "a print statement"),
        ('name = raw_input()\nprint("Hello %s!" % name)\n', "raw_input()"),
    ],
)
def test_a_python_2_accepted_solution_is_named_as_such(
    copy_sample: Callable[..., Path], source: str, sign: str
) -> None:
    root = copy_sample("hello")
    write(root, "submissions/accepted/old.py", source)
    code, report = verifyproblem("-p", "submissions", str(root))
    (finding,) = report["findings"]
    assert code == 1 and finding["severity"] == "error"
    assert finding["path"] == "submissions/accepted/old.py"
    assert finding["message"].startswith(f"Python 2 program ({sign}); this judge runs Python 3: ")


@pytest.mark.parametrize(
    ("where", "source", "says"),
    [
        ("input_validators/old.py", "import sys\nline = raw_input()\nsys.exit(42)\n",
         "input validator old rejects this input: Python 2 program (raw_input()); "),
        ("input_validators/old.py", 'import sys\nprint "x"\nsys.exit(42)\n',
         "input validator does not build: Python 2 program (a print statement); "),
        ("output_validators/old.py", "import sys\nfor k, v in {}.iteritems(): pass\nsys.exit(42)\n",
         "Python 2 program (.iteritems()); this judge runs Python 3: output validator failed"),
    ],
)  # fmt: skip
def test_a_python_2_validator_is_named_as_such(
    copy_sample: Callable[..., Path], where: str, source: str, says: str
) -> None:
    """Old packages' validators are often Python 2: their failures say so, not only
    NameError (the input validator's run, its build, the output validator's run)."""
    root = copy_sample("hello")
    write(root, where, source)
    if where.startswith("output"):
        with (root / "problem.yaml").open("a") as yaml:
            yaml.write("validation: custom\n")
    _, report = verifyproblem("-p", "validators,submissions", "-s", "hello.c$", str(root))
    messages = [f["message"] for f in report["findings"] if f["severity"] == "error"]
    assert messages and any(says in m for m in messages), messages
