"""problem.yaml of a legacy (and the seed's) or draft package mapped to 2025-09: each key
to its successor, comments and key order kept, and each key 2025-09 cannot say reported
as unmappable (and nothing else)."""

from __future__ import annotations

import pytest

from problemtools_py.convert.roundtrip import dump, load_map
from problemtools_py.convert.versions.upgrade_config import upgrade_config


def upgraded(text: str, legacy: bool = True, time_limit: float | None = None,
             names: dict[str, str] | None = None) -> tuple[str, list[str], list[str]]:  # fmt: skip
    data = load_map(text, "problem.yaml")
    result = upgrade_config(data, legacy, names or {"en": "A"}, time_limit)
    unmappable = [n.message for n in result.notes if n.kind == "unmappable"]
    return dump(result.data), result.output_validator_args, unmappable


def test_comments_and_key_order_survive() -> None:
    text = "# top comment\nname: Hello  # its name\nlicense: cc0\nsource: NWERC\n"
    out, _, unmappable = upgraded(text)
    assert unmappable == []
    assert out.startswith("# top comment\nproblem_format_version: 2025-09\n")
    assert "  en: Hello  # its name\n" in out or "name:  # its name" in out or "# its name" in out
    assert out.index("license") < out.index("source")


@pytest.mark.parametrize(("text", "expect", "args"), [
    ("validation: custom interactive\n", "type: interactive\n", []),
    ("validation: custom score\n", "type: scoring\n", []),
    ("type: scoring\nvalidation: custom interactive\n", "type: [scoring, interactive]\n", []),
    ("validator: float_tolerance 1e-6\n", "problem_format_version", ["float_tolerance", "1e-6"]),
    ("validator: custom case_sensitive\n", "problem_format_version", ["case_sensitive"]),
    ("validator_flags: space_change_sensitive\n", "problem_format_version",
     ["space_change_sensitive"]),
    ("grader: sum\n", "type: scoring\n", []),
    ("author: Ada Lovelace and Alan Turing\n", "credits:\n  authors:\n    - Ada Lovelace\n"
     "    - Alan Turing\n", []),
    ("author: Ada Lovelace\n", "credits:\n  authors: Ada Lovelace\n", []),
    ("source: NWERC\nsource-url: https://x.example\n",
     "source:\n  name: NWERC\n  url: https://x.example\n", []),
    ("keywords: graphs trees\n", "keywords: [graphs, trees]\n", []),
    ("languages: c cpp\n", "languages: [c, cpp]\n", []),
    ("languages: all\n", "languages: all\n", []),
    ("limits:\n  memory: 512\n", "  time_multipliers:\n    ac_to_time_limit: 5\n"
     "    time_limit_to_tle: 2\n", []),
    ("limits:\n  time_multiplier: 3\n  time_safety_margin: 1.5\n",
     "    ac_to_time_limit: 3\n    time_limit_to_tle: 1.5\n", []),
], ids=["interactive", "score", "scoring-interactive", "seed-validator", "seed-custom",
        "validator-flags", "seed-grader-sum", "authors", "author", "source-url", "keywords",
        "languages", "languages-all", "legacy-multipliers", "multipliers"])  # fmt: skip
def test_legacy_keys_map(text: str, expect: str, args: list[str]) -> None:
    out, got_args, unmappable = upgraded(text)
    assert unmappable == []
    assert expect in out
    assert got_args == args
    assert "uuid:" in out and "name:\n  en: A\n" in out


@pytest.mark.parametrize(("text", "says"), [
    ("grader: custom\n", "grader: custom: 2025-09 has no custom graders"),
    ("libraries: gmp boost\n", "libraries: 2025-09 has no such key"),
    ("source-url: https://x.example\n", "source-url without a source name"),
    ("grading:\n  objective: min\n", "grading.objective: min has no 2025-09 counterpart"),
    ("limits:\n  cpu_cores: 4\n", "limits.cpu_cores: no such key in 2025-09"),
    ("favourite_colour: blue\n", "favourite_colour: no such key in 2025-09"),
    ("author: A\ncredits: B\n", "both author and credits"),
])  # fmt: skip
def test_what_2025_09_cannot_say_is_unmappable(text: str, says: str) -> None:
    _, _, unmappable = upgraded(text)
    assert len(unmappable) == 1 and says in unmappable[0], unmappable


def test_the_time_limit_is_written_on_a_resolution_it_fits() -> None:
    out, _, _ = upgraded("name: X\n", time_limit=2.5)
    assert "  time_limit: 2.5\n  time_resolution: 0.5\n" in out
    out, _, _ = upgraded("name: X\n", time_limit=3.0)
    assert "  time_limit: 3\n" in out and "time_resolution" not in out


def test_a_draft_package_keeps_its_keys() -> None:
    text = ("problem_format_version: 2023-07-draft\nname:\n  en: D\nuuid: 6b5b3a5e-0d3f-4e8a"
            "-9d6c-2f1e7c3b9a10\ntype: pass-fail\nlimits:\n  time_multipliers:\n"
            "    ac_to_time_limit: 2.0\n")  # fmt: skip
    out, _, unmappable = upgraded(text, legacy=False)
    assert unmappable == []
    assert out == text.replace("2023-07-draft", "2025-09")
