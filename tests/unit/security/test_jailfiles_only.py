"""problemtools_py.jailfiles is the only place the judge opens, reads, moves or lists a
path a jailed program could have written (issue 56): every module of the judging side is
read, and a raw file call (``open``, ``os.open``, ``Path.read_bytes``, ``shutil.move``,
``os.rename``...) on such a path outside jailfiles fails this test. Such a path is known by
its name: a feedback file's, a generator's ``testcase.*``, or a variable holding a feedback
or scratch directory; ``O_NOFOLLOW`` (the sign of an ad hoc guard) is jailfiles' alone;
and no name is moved (``shutil.move``, ``rename``) but by the allowed judge-made ones."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "problemtools_py"
JUDGING = ("judge", "grading", "generate", "verify", "workbench", "sandbox", "dataset",
           "convert", "statements", "cli", "upstream")  # fmt: skip
# programs that run inside a jail themselves (a validator's own code), not the judge
IN_JAIL = {"judge/dataset_rule.py", "convert/skeletons/skeleton_games.py"}
JAIL_NAMES = re.compile(
    r"^(nextpass\.in|judgemessage\.txt|teammessage\.txt|score\.txt|score_multiplier\.txt"
    r"|diffposition\.txt|testcase.*|feedback)$"
)
JAIL_VARIABLES = re.compile(r"(feedback|nextpass|scratch)", re.IGNORECASE)
RAW_CALLS = {"open", "read_bytes", "read_text", "write_bytes", "write_text", "unlink",
             "exists", "is_file", "is_dir", "lexists", "isfile", "isdir", "stat", "lstat",
             "scandir", "listdir", "iterdir", "glob", "rglob", "walk", "move", "copy",
             "copyfile", "copy2", "copytree", "rename", "replace", "symlink_to"}  # fmt: skip
# renames of names the judge itself made (a build directory it created, a cache entry)
RENAMES_ALLOWED = {"atomicfile.py", "sandbox/native.py", "sandbox/launch.py",
                   "judge/javacds.py", "judge/pch.py", "judge/buildcache.py",
                   "judge/compile.py", "dataset/assemble.py", "dataset/export.py",
                   "dataset/distributed.py", "statements/texformat.py",
                   "dataset/derived.py", "upstream/journal.py",
                   "convert/versions/upgrade_write.py", "convert/skeletons/skeleton.py"}  # fmt: skip


def _modules() -> list[Path]:
    found = [p for top in JUDGING for p in (PACKAGE / top).rglob("*.py")]
    return found + [p for p in PACKAGE.glob("*.py") if p.name != "jailfiles.py"]


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _names_a_jail_path(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            named = sub.value.strip("/")
            if JAIL_NAMES.match(named):
                return True
        name = sub.id if isinstance(sub, ast.Name) else getattr(sub, "attr", "")
        if isinstance(name, str) and JAIL_VARIABLES.search(name):
            return True
    return False


def raw_touches(path: Path) -> list[str]:
    """Each raw file call in ``path`` on a path a jail could have written."""
    rel = path.relative_to(PACKAGE).as_posix()
    if rel in IN_JAIL:
        return []
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or _called(node) not in RAW_CALLS:
            continue
        func = node.func
        if ast.unparse(func).startswith("jailfiles."):
            continue
        target = [func.value] if isinstance(func, ast.Attribute) else []
        if any(_names_a_jail_path(part) for part in [*target, *node.args]):
            found.append(f"{rel}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_no_raw_touch_of_a_jail_written_path() -> None:
    assert [hit for path in _modules() for hit in raw_touches(path)] == []


def test_no_ad_hoc_nofollow_outside_jailfiles() -> None:
    hits = [f"{p.relative_to(PACKAGE)}:{i}" for p in PACKAGE.rglob("*.py")
            if p.name != "jailfiles.py"
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if "O_NOFOLLOW" in line]  # fmt: skip
    assert hits == []


def test_names_are_moved_only_where_the_judge_made_them() -> None:
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            text = ast.unparse(node.func)
            moved = text in ("shutil.move", "os.rename", "os.replace") or (
                text.endswith(".rename") and text != "os.rename"
            )
            if moved and rel not in RENAMES_ALLOWED:
                found.append(f"{rel}:{node.lineno}: {text}")
    assert found == []


def test_the_scan_finds_the_holes_it_is_for(tmp_path: Path) -> None:
    """The scan itself: the two raw touches issue 56 found are caught."""
    sample = PACKAGE / "judge" / "zz_sample.py"
    try:
        sample.write_text(
            "import os, shutil\n"
            "def f(validation, stdin, feedback_dir):\n"
            "    shutil.move(validation.nextpass, stdin)\n"
            "    return open(os.path.join(feedback_dir, 'x'))\n"
            "def g(root):\n"
            "    return (root / 'nextpass.in').read_bytes()\n"
        )
        assert len(raw_touches(sample)) == 3
    finally:
        sample.unlink()
