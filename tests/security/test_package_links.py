"""Trust boundary: a package directory from elsewhere (docs/security.md). A link in it
that leads out of the package (absolute, or relative through another link) is refused
by the model: the host file it names is never read into a verdict, a report or a
dataset. (Devised beside issue 56's archive hole: the same links, already on disk.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

BIN = Path(sys.executable).parent


def _secret(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "host" / "secret"
    path.parent.mkdir()
    text = f"TOPSECRET-{uuid.uuid4().hex}"
    path.write_text(text + "\n")
    path.chmod(0o600)
    return path, text


def _linked(tmp_path: Path, how: str) -> tuple[Path, str]:
    secret, text = _secret(tmp_path)
    root = shutil.copytree(SAMPLES / "hello", tmp_path / "hello")
    answer = next((root / "data" / "secret").glob("*.ans"))
    answer.unlink()
    if how == "absolute":
        answer.symlink_to(secret)
    else:  # (relative, through a link at the package's top that leaves it)
        (root / "up").symlink_to("../host")
        answer.symlink_to(f"../../up/{secret.name}")
    return root, text


@pytest.mark.parametrize("how", ["absolute", "through-a-link"])
def test_a_link_out_of_a_package_is_never_read(tmp_path: Path, how: str) -> None:
    root, text = _linked(tmp_path, how)
    run = subprocess.run([str(BIN / "verifyproblem"), "--json", str(root)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert text not in run.stdout + run.stderr
    report = json.loads(run.stdout)["problems"][0]
    assert any("inside the package" in f["message"] for f in report["findings"]), report
    out = tmp_path / "ds"
    subprocess.run([str(BIN / "kattis2parquet"), str(root), "-o", str(out), "-q"],
                   capture_output=True, text=True, check=False)  # fmt: skip
    for path in out.rglob("*") if out.exists() else []:
        assert not path.is_file() or text.encode() not in path.read_bytes(), path
