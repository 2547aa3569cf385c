"""judge/python2.py: a Python program's error that shows Python 2 code, as Python 3 words
it (compiled by this machine's python3, so the words are the real ones), named as such;
and the grader's statuses say so."""

from __future__ import annotations

import subprocess

import pytest

from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.judge.python2 import named, python2_sign
from problemtools_py.sandbox.launch import server_python

PROGRAMS = [
    ('print "hello"\n', "a print statement"),
    ('exec "x = 1"\n', "an exec statement"),
    ("try:\n    pass\nexcept ValueError, e:\n    pass\n", "'except E, name:'"),
    ("x = 0777\n", "an octal literal such as 0777"),
    ("x = raw_input()\n", "raw_input()"),
    ("for i in xrange(3):\n    pass\n", "xrange()"),
    ("d = {}\nfor k, v in d.iteritems():\n    pass\n", ".iteritems()"),
    ("print(unicode('x'))\n", "unicode()"),
    ("print(1)\n", None),
    ("x = undefined_name\n", None),
    ("raise ValueError('no')\n", None),
]


@pytest.mark.parametrize(("source", "sign"), PROGRAMS)
def test_the_sign_is_found_in_what_python3_says(source: str, sign: str | None) -> None:
    done = subprocess.run([server_python(), "-c", source], input="", capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert python2_sign(done.stderr) == sign
    if sign is None:
        assert named(done.stderr) == done.stderr
    else:
        assert named(done.stderr).startswith(f"Python 2 program ({sign}); this judge runs Python 3: ")


@pytest.mark.parametrize(
    ("completion", "status", "sign"),
    [('print "x"\n', "syntax_error", "a print statement"),
     ("print(raw_input())\n", "runtime_error", "raw_input()")],
)  # fmt: skip
def test_the_grader_names_a_python_2_completion(completion: str, status: str, sign: str) -> None:
    with Grader(None, Settings(raw=True)) as grader:
        result = grader.grade_tests((("x\n", "x\n"),), 2.0, completion)
    assert (result.reward, result.status) == (0.0, status)
    assert result.message.startswith(f"Python 2 program ({sign}); this judge runs Python 3: ")
