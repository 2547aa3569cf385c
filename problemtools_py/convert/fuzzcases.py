"""``generatedata --fuzz --add``: the cases fuzzing found recorded in
``generators/generators.yaml`` (its comments and layout kept), each its generator command
with the seed written out, under ``data: fuzz: data:`` by the names they have in
``data/fuzz/`` (``"1": random_list.py 10 100 577090037``), so that ``generatedata`` makes
them again, byte for byte. (BAPCtools' ``bt fuzz`` appends to a numbered list there; a
numbered list's cases are numbered across the whole file, so every other case's name
would change with the width of the numbers: a map leaves them alone.)"""

from __future__ import annotations

from pathlib import Path

from problemtools_py import atomicfile
from problemtools_py.convert.roundtrip import child_map, dump, load_map, put

YAML_REL = "generators/generators.yaml"
WHY = "add fuzzed cases to"


def add_fuzz_cases(root: Path, found: list[tuple[str, str]]) -> None:
    """Record ``found`` (name in data/fuzz/, command) in data.fuzz.data."""
    path = root / YAML_REL
    data = load_map(path.read_text(encoding="utf-8"), str(path))
    cases = child_map(
        child_map(child_map(data, "data", path, WHY), "fuzz", path, WHY), "data", path, WHY
    )
    for name, command in found:
        put(cases, name, command)
    atomicfile.write_bytes(path, dump(data).encode("utf-8"))
