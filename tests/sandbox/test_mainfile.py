"""mainfile.rehearse (issue 61): a lean init makes a text of ours ready as a main file, as
each server of runs makes a completion's, and puts back everything that changed; in an
interpreter started as the init is (``python3 -I -S``), so nothing of pytest's is there to
hide a change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from problemtools_py.sandbox import mainfile, renewal, zygote
streams = zygote.lean_streams()
names = ("argv", "path", "orig_argv", "stdin", "stdout", "stderr",
         "__stdin__", "__stdout__", "__stderr__")
before = {name: (id(getattr(sys, name)), repr(getattr(sys, name))) for name in names}
main_before = sys.modules.get("__main__")
modules_before = set(sys.modules)
done = mainfile.rehearse(sys.argv[2], streams)
after = {name: (id(getattr(sys, name)), repr(getattr(sys, name))) for name in names}
print(json.dumps({
    "done": done,
    "changed": sorted(name for name in names if before[name] != after[name]),
    "main_same": sys.modules.get("__main__") is main_before,
    "caches": len(mainfile._COMPILED) + len(mainfile._PREPARED),
    "new_modules": sorted(set(sys.modules) - modules_before),
}))
"""


def _rehearse(text: str) -> dict[str, object]:
    found = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE, str(ROOT), text],
                           capture_output=True, text=True, check=True)  # fmt: skip
    result: dict[str, object] = json.loads(found.stdout)
    return result


def test_the_rehearsal_puts_back_what_it_changed() -> None:
    from problemtools_py.sandbox.renewal import WARM_UP

    found = _rehearse(WARM_UP)
    assert found["done"] is True
    assert found["changed"] == []
    assert found["main_same"] is True
    assert found["caches"] == 0  # (no main file of the rehearsal is left for a server)


def test_a_text_that_is_not_python_is_not_rehearsed_and_changes_nothing() -> None:
    found = _rehearse("def (:\n")
    assert found["done"] is False
    assert found["changed"] == [] and found["main_same"] is True and found["caches"] == 0


def test_the_rehearsal_imports_only_what_the_text_names() -> None:
    found = _rehearse("import heapq\nprint(heapq.nsmallest(1, [2, 1]))\n")
    assert "heapq" in found["new_modules"]  # type: ignore[operator]
    assert "decimal" not in found["new_modules"]  # type: ignore[operator]
