"""Commands start at once: importing a command's module (all ``--help`` needs) loads none
of the heavy libraries or layers, and ``verifyproblem -p config`` on an unchanged package
needs neither jsonschema (its results are cached by content, and a valid document does
not need it in the first place) nor the judge, nor the
standard modules only rarer paths use (``STDLIB_LATER``: 1-6 ms each). Structural
checks in fresh interpreters; the times are bench/startup.py's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers.packages import SAMPLES, run_python

HEAVY = ("jsonschema", "rich", "pyarrow", "jinja2", "plasTeX", "markdown_it", "yaml", "ray",
         "ruamel")
STDLIB_LATER = ("typing", "hashlib", "zipfile", "tempfile", "difflib", "concurrent.futures")
LAYERS = ("judge", "sandbox", "model", "grading", "statements")
COMMANDS = ("verifyproblem", "generatedata", "gradecode", "parquet2kattis", "kattis2parquet",
            "problem2html", "problem2pdf", "problem2zip", "gradeserver", "upgradeproblem",
            "hook", "newproblem", "newcontest", "runsubmission", "conteststats", "auditdata")


def _loaded(code: str, env: dict[str, str] | None = None) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = run_python(probe, env=env).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize("command", COMMANDS)
def test_importing_a_command_loads_nothing_heavy(command: str) -> None:
    loaded = _loaded(f"import problemtools_py.cli.{command}")
    assert {m.split(".")[0] for m in loaded} & set(HEAVY) == set()
    # (a layer's package may be, for a constant; none of its modules)
    ours = {m.split(".")[1] for m in loaded if m.startswith("problemtools_py.") and m.count(".") > 1}
    assert ours & set(LAYERS) == set()


def _config_run(problem: object) -> str:
    return ("from problemtools_py.cli.verifyproblem import main\n"
            f"try:\n    main(['-q', '-p', 'config', {str(problem)!r}])\n"
            "except SystemExit:\n    pass")


def test_a_config_check_needs_no_jsonschema_once_cached(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run = _config_run(SAMPLES / "hello")
    first = _loaded(run, env)
    assert "jsonschema" not in first  # a valid problem.yaml: checks/schema_quick.py said so
    assert (tmp_path / "cache" / "problemtools_py" / "schema").is_dir()  # (and it was kept)
    again = _loaded(run, env)
    assert "jsonschema" not in again and "problemtools_py.judge" not in {
        ".".join(m.split(".")[:2]) for m in again}
    assert again & set(STDLIB_LATER) == set()


def test_jsonschema_words_the_errors_of_a_broken_problem_yaml(tmp_path: Path) -> None:
    import os
    import shutil

    problem = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", problem)
    with (problem / "problem.yaml").open("a", encoding="utf-8") as out:
        out.write("source_url: 5\n")  # (not a string)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert "jsonschema" in _loaded(_config_run(problem), env)


@pytest.mark.parametrize(("groups", "imported"), [(2, False), (9, True)])
def test_a_text_report_imports_rich_only_for_a_table_too_wide_to_draw_itself(
    groups: int, imported: bool
) -> None:
    """(plaintable draws what fits in 80 columns; a wider table is rich's to shrink)"""
    code = ("from problemtools_py.cli.reporters import TextReporter\n"
            "from problemtools_py.findings import Cell, ProblemReport, SubmissionRow\n"
            "from problemtools_py.verdicts import Verdict\n"
            f"cells = {{f'group-{{i}}': Cell(Verdict.AC, 0.0, 1) for i in range({groups})}}\n"
            "row = SubmissionRow('submissions/a.py', None, None, Verdict.AC, None, 0.0, cells)\n"
            "TextReporter().problem(ProblemReport('p', 'p', submissions=[row]))")
    env = {**os.environ, "COLUMNS": "80"}
    assert ("rich" in _loaded(code, env)) is imported


# issue 61, item 4: "-p config" on an unchanged package within 4 bare starts (bench/
# startup.py times it: 3.2x on the development machine). Its budget here is what the time
# follows and a test can count on any machine, loaded or not: the modules it loads beyond
# a bare interpreter's (108 when this was written; each one is an import of 0.1-6 ms).
CONFIG_MODULE_BUDGET = 125


def test_a_config_check_stays_within_its_module_budget_over_a_bare_start(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run = _config_run(SAMPLES / "hello")
    _loaded(run, env)  # (the schema results cached, as on every later check)
    extra = _loaded(run, env) - _loaded("pass", env)
    assert len(extra) <= CONFIG_MODULE_BUDGET, sorted(extra)
