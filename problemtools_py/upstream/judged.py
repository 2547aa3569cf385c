"""A row kept with its own testlib checker (``importdataset --keep-judges``): its judge
(see dataset.judges) is a 2023-07 package whose output validator is the checker, beside
testlib's header (``upstream/testlib``: MIT, where it comes from is in its README) and a
``main`` of ours that speaks Kattis' protocol: a Kattis output validator is called as
``validate input answer feedback_dir`` with the team's output on stdin and says 42 or 43;
a testlib checker is called as ``checker input output answer``. So ours writes stdin to
``feedback_dir/team_output``, calls the checker's own ``main`` (renamed) with testlib's
order, and testlib's exit codes are set to Kattis' through the macros it reads for that
(``OK_EXIT_CODE``...): accepted 42; a wrong answer, a presentation error, dirt after the
answer, an output that ends too soon 43; a checker's failure (or points: the row is
pass-fail) 1, the validator's own error."""

from __future__ import annotations

import functools
import json
import uuid
from importlib import resources

import yaml

from problemtools_py.dataset.judges import MAX_BYTES, VERSION

WRAPPER = """// Kattis output validator around a testlib checker (problemtools_py importdataset).
#define OK_EXIT_CODE 42
#define WA_EXIT_CODE 43
#define PE_EXIT_CODE 43
#define DIRT_EXIT_CODE 43
#define UNEXPECTED_EOF_EXIT_CODE 43
#define FAIL_EXIT_CODE 1
#define POINTS_EXIT_CODE 1
#define main testlib_checker_main
#include "checker.h"
#undef main
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char* argv[]) {
    if (argc < 4) return 1;
    std::string output = std::string(argv[3]) + "/team_output";
    {
        std::ofstream written(output.c_str(), std::ios::binary);
        written << std::cin.rdbuf();
    }
    char* args[] = {argv[0], argv[1], const_cast<char*>(output.c_str()), argv[2], nullptr};
    return testlib_checker_main(4, args);
}
"""


@functools.cache
def testlib_header() -> str:
    """testlib.h's text, read once (206 KB: every judged row carries it)."""
    return (resources.files("problemtools_py.upstream") / "testlib" / "testlib.h").read_text()


def judge_of(checker: str, tests: int, name: str) -> str | None:
    """The judge_json of a row of ``tests`` tests judged by ``checker`` (a testlib
    checker's source), or None when it is over dataset.judges' bound."""
    config = {
        "problem_format_version": "2023-07-draft",
        "name": {"en": name},
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"importdataset-judge:{name}")),
    }
    width = max(3, len(str(tests)))
    files = {
        "problem.yaml": yaml.safe_dump(config, allow_unicode=True, sort_keys=False),
        "output_validator/validate.cpp": WRAPPER,
        "output_validator/checker.h": checker,
        "output_validator/testlib.h": testlib_header(),
    }
    text = json.dumps(
        {
            "version": VERSION,
            "kind": "custom",
            "flags": "",
            "cases": [f"data/secret/{index:0{width}d}" for index in range(1, tests + 1)],
            "files": {path: {"text": content} for path, content in files.items()},
        },
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return text if len(text.encode()) <= MAX_BYTES else None
