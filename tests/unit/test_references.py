"""Every module, file, function and class member a docstring, a comment or a document names
exists: a name left behind by a rename or a move (``verify/timelimit.py``,
``ahead.burn_ahead``, ``Sandbox.warning``) misleads the next reader, so it is found here.

A reference is a path ending in ``.py`` (found under the repository) or a dotted name whose
first part is one of our modules (``ahead.judge_ahead``, ``verify.verifier.verify_all``)
or classes (``Sandbox.run_lean``); the rest must be defined there. Names of anything else
(``os.fork``, ``ray.get``) are not ours to check."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "problemtools_py"
SOURCES = [p for d in ("problemtools_py", "tests", "bench", "scripts") for p in (ROOT / d).rglob("*.py")
           if "fidelity/python" not in p.as_posix() and "fidelity/compiled" not in p.as_posix()
           and p != Path(__file__).resolve()]  # fmt: skip
# A dotted name ending so is a file's name (problem.yaml, Main.java), not an attribute.
EXTENSIONS = frozenset(re.findall(r"\w+", """yaml yml md py pdf html tex java json txt cpp cc c h
    hpp zip kpp in ans out png svg jpg sh toml cfg ini fmt jsa sqlite3 log js css rs kt go
    interaction statement download files args desc hint parquet jsonl"""))
# Names of others' APIs that start like a module of ours (SandboxFusion's request fields,
# the 2025-09 format's keys, the dataset card's columns).
THEIRS = frozenset({"config.provided_data.test", "config.language", "grading.objective",
                    "grading.show_test_data_groups", "problem.problem_id"})
# The folders a path of ours starts with (a path like prog.py names a user's file).
OURS = frozenset({"problemtools_py", "tests", "bench", "docs", "scripts",
                  *(p.name for p in PACKAGE.iterdir() if p.is_dir())})
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PATH = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.py)\b")
DOTTED = re.compile(r"(?<![\w./-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?(?![\w/])")


class Index:
    """What our package defines: modules by every suffix of their dotted name, classes by
    name, each with the names defined at its top level or in its body."""

    def __init__(self) -> None:
        self.modules: dict[str, list[set[str]]] = defaultdict(list)
        self.classes: dict[str, list[tuple[set[str], list[str]]]] = defaultdict(list)
        # (the repository's own folders: not build/ or a virtual environment, whose
        # copies of old modules would make a stale name look alive)
        self.files = {p.relative_to(ROOT).as_posix()
                      for d in ("problemtools_py", "tests", "bench", "scripts", "docs")
                      for p in (ROOT / d).rglob("*.py")}  # fmt: skip
        for path in PACKAGE.rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = _defined(tree.body)
            if path.name == "__init__.py":  # (a package: its modules are its names too)
                names |= {p.stem for p in path.parent.glob("*.py")}
                names |= {p.name for p in path.parent.iterdir() if (p / "__init__.py").is_file()}
            for i in range(len(parts)):
                self.modules[".".join(parts[i:])].append(names)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    bases = [b.id if isinstance(b, ast.Name) else "?" for b in node.bases]
                    self.classes[node.name].append((_members(node), bases))

    def wrong(self, ref: str) -> bool:
        """Whether ``ref`` names one of our modules or classes but nothing defined there
        (``problem.settings``, a module's name used for an instance: any class's member)."""
        parts = ref.split(".")
        if parts[-1] in EXTENSIONS or ref in THEIRS:
            return False
        for cut in range(len(parts) - 1, 0, -1):  # (the longest module name first)
            head, rest = ".".join(parts[:cut]), parts[cut:]
            if head in self.modules:
                found = any(self._has(names, rest) for names in self.modules[head])
                return not found and not (cut == 1 and self._any_member(rest[0]))
        if parts[0] in self.classes:
            return not self.has_member(parts[0], parts[1])
        return False

    def _has(self, names: set[str], rest: list[str]) -> bool:
        if rest[0] not in names:
            return False
        if len(rest) > 1 and rest[0] in self.classes:  # (Class.member)
            return self.has_member(rest[0], rest[1])
        return True

    def has_member(self, cls: str, name: str, depth: int = 0) -> bool:
        """``cls`` (any class of that name) or a base of it defines ``name``; a base not
        ours (an enum's, an exception's) is taken on trust."""
        for members, bases in self.classes.get(cls, []):
            if name in members:
                return True
            for base in bases:
                if base not in self.classes or depth > 5 or self.has_member(base, name, depth + 1):
                    return True
        return False

    def _any_member(self, name: str) -> bool:
        return any(name in members for found in self.classes.values() for members, _ in found)

    def missing_file(self, rel: str) -> bool:
        """Whether ``rel`` is no file of ours where it says: from the repository's top, or
        from the package's (``grading/grader.py``); a file of that name elsewhere is no
        excuse (issue 59: docs named verify/cache.py long after it moved)."""
        return rel not in self.files and f"problemtools_py/{rel}" not in self.files


def _defined(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for inner in getattr(node, block, []):
                    names |= _defined(inner.body if isinstance(inner, ast.ExceptHandler) else [inner])
    return names


def _members(node: ast.ClassDef) -> set[str]:
    """A class's methods, attributes and (from its methods) ``self.x`` it sets."""
    members = _defined(node.body)
    for inner in ast.walk(node):
        if (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name)
                and inner.value.id in ("self", "cls") and isinstance(inner.ctx, ast.Store)):
            members.add(inner.attr)
    return members


def _texts() -> Iterator[tuple[str, int, str]]:
    """(where, line, text) of every docstring and comment of our sources, and every doc."""
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node, clean=False)
                if doc and node.body:
                    yield rel, node.body[0].lineno, doc
        for number, line in enumerate(source.splitlines(), 1):
            if "#" in line:
                yield rel, number, line[line.index("#"):]
    for path in DOCS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield path.relative_to(ROOT).as_posix(), number, line


def _stale(index: Index) -> list[str]:
    found = []
    for where, line, text in _texts():
        for rel in PATH.findall(text):
            if "/" in rel and rel.split("/")[0] in OURS and index.missing_file(rel):
                found.append(f"{where}:{line}: file {rel}")
        for ref in DOTTED.findall(text):
            if not ref.endswith(".py") and index.wrong(ref):
                found.append(f"{where}:{line}: {ref}")
    return sorted(set(found))


def test_every_name_a_text_gives_exists() -> None:
    assert _stale(Index()) == []


def test_a_bare_file_name_in_the_package_is_a_neighbours() -> None:
    """``see held.py`` in a module of verify/ means verify/held.py: a module named bare is
    one of its own folder's or the package's top (else name its folder: judge/held.py)."""
    folders: dict[str, set[Path]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        folders[path.name].add(path.parent)
    found = []
    for where, line, text in _texts():
        if not where.startswith("problemtools_py/"):
            continue
        here = (ROOT / where).parent
        for rel in PATH.findall(text):
            places = folders.get(rel, {here})
            if "/" not in rel and here not in places and PACKAGE not in places:
                found.append(f"{where}:{line}: {rel} is in {sorted(p.name for p in places)}")
    assert found == []


def test_the_names_left_behind_before_are_found() -> None:
    """The stale names issue 41 listed, and the kinds of reference that are not ours."""
    index = Index()
    for stale in ("ahead.burn_ahead", "Sandbox.warning", "loader.sidecar_name",
                  "verify.verifier.verify_everything", "Context.buld"):  # fmt: skip
        assert index.wrong(stale), stale
    assert index.missing_file("verify/timelimit.py")
    for fine in ("ahead.judge_ahead", "Sandbox.run_lean", "sidecar.sidecar_name", "Context.build",
                 "verify.verifier.verify_all", "problem.settings", "problem.yaml", "os.fork",
                 "Verdict.AC", "Status.OK"):  # fmt: skip
        assert not index.wrong(fine), fine
    assert not index.missing_file("model/timelimit.py")


# Commits of Kattis/problem-package-format the format docs name (the text they follow).
SPEC_COMMITS = frozenset({"b03c6a2", "05ad02a", "a023fd3"})
HEX = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}\b")


def test_user_docs_carry_no_history() -> None:
    """Issue 59: measurements and the commits they were made at live in bench/README.md;
    the guides say what a command does."""
    found = [f"{path.relative_to(ROOT)}:{number}: {word}"
             for path in DOCS
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for word in HEX.findall(line) if word not in SPEC_COMMITS]  # fmt: skip
    assert found == []
    assert "## Per-test overhead" in (ROOT / "bench" / "README.md").read_text(encoding="utf-8")


def _sentence_lengths(text: str) -> list[int]:
    """Words per sentence of a guide's prose (code blocks, tables and headings left out)."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    lines = [line for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith(("|", "#", "    "))]  # fmt: skip
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", " ".join(lines))
    return [len(s.split()) for s in sentences if len(s.split()) > 2]


def test_the_guides_read_in_short_sentences() -> None:
    """Issue 59: a newcomer reads the docs in one sitting. The median sentence stays near
    20 words (BAPCtools' docs: 15-18; ours were 32-47 before)."""
    import statistics

    long = {}
    for path in DOCS:
        lengths = _sentence_lengths(path.read_text(encoding="utf-8"))
        if len(lengths) >= 5 and statistics.median(lengths) > 25:
            long[str(path.relative_to(ROOT))] = statistics.median(lengths)
    assert long == {}
