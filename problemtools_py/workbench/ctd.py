"""Checktestdata (``.ctd``) input validators, through the ``checktestdata`` package from
PyPI when it is installed: the package and the ``.ctd`` file become one small Python
program (built and cached like any other) that exits 42 when the input is valid."""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path

from problemtools_py.judge.compile import Build, Builder
from problemtools_py.judge.languages import Languages
from problemtools_py.model.constants import substitute_bytes
from problemtools_py.model.problem import Program

RUNNER = """import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from checktestdata.pyctd import main

sys.argv = ["pyctd", os.path.join(here, "validator.ctd")]
try:
    main()
    code = 0
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
sys.stdout.flush()
os._exit(42 if code == 0 else 43)
"""


def checktestdata_dir() -> Path | None:
    spec = importlib.util.find_spec("checktestdata")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def build_ctd(
    program: Program,
    root: Path,
    builder: Builder,
    languages: Languages,
    constants: Mapping[str, str],
) -> Build | str:
    """The built validator, or why it cannot be run; its ``{{name}}`` substituted with
    ``constants`` (as every validator's: see Workbench._constants)."""
    package = checktestdata_dir()
    if package is None:
        return (
            "checktestdata is not installed (pip install checktestdata), so this .ctd "
            "validator was not run"
        )
    sources = [f for f in program.files if f.endswith(".ctd")]
    if len(sources) != 1:
        return "a checktestdata validator must be exactly one .ctd file"
    files = {
        "main.py": RUNNER.encode(),
        "validator.ctd": substitute_bytes((root / sources[0]).read_bytes(), constants),
    }
    for path in sorted(package.rglob("*.py")):
        files[f"checktestdata/{path.relative_to(package).as_posix()}"] = path.read_bytes()
    language = languages.get("python3")
    assert language is not None
    return builder.build(language, files)
