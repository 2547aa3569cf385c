"""A non-editable ``pip install .`` into a fresh venv works, ships the schemas and templates,
and its ``verifyproblem`` checks every sample from another directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.packages import REPO, SAMPLE_NAMES, SAMPLES

pytestmark = pytest.mark.slow


def run(cmd: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env,
                          check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("install")
    venv = base / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], base)
    assert made.returncode == 0, made.stderr
    pip = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(REPO)], base)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return venv


def test_schemas_and_templates_ship_in_the_wheel(installed: Path, tmp_path: Path) -> None:
    code = ("from problemtools_py.resources import schema_dir, template_dir;"
            "print(schema_dir()); print(template_dir());"
            "print(sorted(p.name for p in schema_dir().iterdir() if p.name.endswith('.json')))")
    proc = run([str(installed / "bin" / "python"), "-c", code], tmp_path)
    assert proc.returncode == 0, proc.stderr
    schema_path, template_path, names = proc.stdout.splitlines()
    assert str(installed) in schema_path and str(installed) in template_path
    assert "'problem-legacy.schema.json'" in names and "'report.schema.json'" in names


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_installed_verifyproblem_on_sample(installed: Path, tmp_path: Path, name: str) -> None:
    proc = run([str(installed / "bin" / "verifyproblem"), str(SAMPLES / name)], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{name}: 0 errors, 0 warnings" in proc.stdout


def test_installed_verifyproblem_reports_errors(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "problem.yaml").write_text("limits: [\n")
    proc = run([str(installed / "bin" / "verifyproblem"), "bad"], tmp_path)
    assert proc.returncode == 1
    assert "bad/problem.yaml:2: error: YAML syntax error" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_installed_statement_renderers(installed: Path, tmp_path: Path) -> None:
    """problem2html and problem2pdf find their templates and class inside the wheel."""
    html = run([str(installed / "bin" / "problem2html"), str(SAMPLES / "hello"), "-d", "h"],
               tmp_path)
    assert html.returncode == 0, html.stdout + html.stderr
    assert (tmp_path / "h/index.html").is_file() and (tmp_path / "h/smiley.png").is_file()
    pdf = run([str(installed / "bin" / "problem2pdf"), str(SAMPLES / "hello"),
               str(SAMPLES / "twopass"), "-o", "set.pdf"], tmp_path)
    assert pdf.returncode == 0, pdf.stdout + pdf.stderr
    assert (tmp_path / "set.pdf").read_bytes().startswith(b"%PDF")


def test_the_installed_grader_runs_its_loop_in_c(installed: Path, tmp_path: Path) -> None:
    """leanloop.c ships in the wheel: an installed package builds it and its lean sessions
    run on it."""
    if os.geteuid() != 0:
        pytest.skip("a lean session needs root")
    code = (
        "import os, tempfile\n"
        "from problemtools_py.sandbox import native\n"
        "from problemtools_py.sandbox.client import Sandbox\n"
        "from problemtools_py.sandbox.protocol import Bind\n"
        "from problemtools_py.sandbox.results import Limits\n"
        "print(native.SOURCE.is_file())\n"
        "work = tempfile.mkdtemp(); os.chmod(work, 0o755)\n"
        "with Sandbox() as box, box.session(limits=Limits(1.0, 256 << 20),\n"
        "        binds=[Bind(work, '/prog')], inprocess=True, lean=True):\n"
        "    print(box.lean_open, box.lean_loop)\n"
    )
    env_cache = tmp_path / "cache"
    proc = subprocess.run([str(installed / "bin" / "python"), "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={"PATH": os.environ["PATH"], "XDG_CACHE_HOME": str(env_cache)})
    assert proc.returncode == 0, proc.stderr
    shipped, opened = proc.stdout.splitlines()
    assert shipped == "True"
    if opened.startswith("True"):  # (no memory cgroup: no lean session to ask)
        assert opened == "True c"
