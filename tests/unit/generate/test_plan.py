"""generators.yaml read into a plan: names, numbering, counts, seeds (BAPCtools' values),
sources, scope, includes, and every mistake with its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.generate.parse import parse_plan
from problemtools_py.generate.plan import Plan, count_values, parse_command, seed_of
from problemtools_py.generate.yamltext import block_text
from problemtools_py.yamlfile import parse_yaml


def plan_of(text: str, constants: dict[str, str] | None = None, interactive: bool = False) -> Plan:
    doc = parse_yaml(text, Path("generators.yaml"), "generators/generators.yaml")
    return parse_plan(doc, constants or {}, interactive)


# Seeds BAPCtools 2026.10.0 computed (its test problem testseed, whose generator prints
# its arguments): salt, count value, command -> seed.
@pytest.mark.parametrize(("salt", "count", "command", "seed"), [
    ("", 1, "stdout.py {seed}", 162981470),
    ("bob", 1, "stdout.py {seed:42}", 593058468),
    ("", -2, "stdout.py {seed:1} -2", 207342926),
])
def test_seeds_are_bapctools(salt: str, count: int, command: str, seed: int) -> None:
    assert seed_of(salt, count, command) == seed


def test_a_seed_ignores_surrounding_white_space_only() -> None:
    assert seed_of("", 1, "  gen 1 ") == seed_of("", 1, "gen 1")
    assert seed_of("", 1, "gen  1") != seed_of("", 1, "gen 1")


def test_command_arguments() -> None:
    command = parse_command("gen --n 5 {seed:2} {name}.txt", "", 1)
    assert command.program == "gen" and command.uses_seed
    assert command.argv() == ["--n", "5", str(command.seed), "testcase.txt"]
    assert command.argv(retry=1)[2] == str(command.seed + 1)
    with pytest.raises(ValueError, match="at most once"):
        parse_command("gen {seed} {seed:1}", "", 1)


@pytest.mark.parametrize(("count", "values"), [
    (None, [1]), (3, [1, 2, 3]), ([7, -3], [7, -3]), ("10..=12", [10, 11, 12]),
    ("-2..=0", [-2, -1, 0]),
])
def test_count_values(count: object, values: list[int]) -> None:
    assert count_values({"count": count} if count is not None else {}) == values


@pytest.mark.parametrize("count", [0, 101, [1, 1], "3..=1", "1..5", True, []])
def test_bad_counts(count: object) -> None:
    with pytest.raises(ValueError):
        count_values({"count": count})


NUMBERED = """
solution: /submissions/accepted/sum.py
data:
  sample:
    data:
      - "": {in: "1"}
      - b: {in: "2"}
  secret:
    random_salt: s
    data:
      - small:
          generate: gen {seed} {count}
          count: 3
      - grp:
          data:
            - x: gen x
            - y: gen y
      - grp2:
          data:
            z: gen z
      - last: gen last
"""


def test_numbered_lists_number_cases_across_the_file_and_groups_per_list() -> None:
    plan = plan_of(NUMBERED)
    assert plan.errors == ()
    assert [c.path for c in plan.cases] == [
        "sample/1", "sample/2-b", "secret/3-small-1", "secret/4-small-2", "secret/5-small-3",
        "secret/1-grp/6-x", "secret/1-grp/7-y", "secret/2-grp2/z", "secret/8-last",
    ]
    small = plan.cases[2]
    assert small.generate is not None and small.generate.text == "gen {seed} {count}".replace(
        "{count}", "1")
    assert small.generate.seed == seed_of("s", 1, "gen {seed} 1")
    assert plan.cases[3].generate is not None
    assert plan.cases[3].generate.seed == seed_of("s", 2, "gen {seed} 2")
    assert all(c.solution == "/submissions/accepted/sum.py" for c in plan.cases)


def test_width_follows_the_number_of_numbered_cases() -> None:
    cases = "\n".join(f"      - c{i}: gen {i}" for i in range(10))
    plan = plan_of(f"data:\n  secret:\n    data:\n{cases}\n")
    assert plan.cases[0].path == "secret/01-c0" and plan.cases[9].path == "secret/10-c9"


def test_dict_data_is_sorted_and_sources_are_read() -> None:
    plan = plan_of("""
data:
  secret:
    data:
      b: {copy: manual/b}
      a:
        in: "5"
        ans: "6\\n"
        in.statement: {link: in}
        yaml:
          hint: add one
      c: manual/c.in
""")
    assert [c.path for c in plan.cases] == ["secret/a", "secret/b", "secret/c"]
    a, b, c = plan.cases
    assert a.inline[".in"] == "5\n" and a.inline[".ans"] == "6\n"
    assert a.inline[".yaml"] == "hint: add one\n"
    assert b.copy == "manual/b" and c.copy == "manual/c"
    assert plan.errors[0].message == "in.statement is for samples only"


def test_includes_copy_earlier_cases() -> None:
    plan = plan_of("""
data:
  sample:
    data:
      one: {in: "1"}
  secret:
    include: [sample]
    data:
      two: {in: "2"}
""")
    secret = next(d for d in plan.dirs if d.path == "secret")
    assert secret.includes == ("sample/one",)


@pytest.mark.parametrize(("text", "message", "line"), [
    ("data:\n  secret:\n    data:\n      a:\n", "an empty entry", 4),
    ("data:\n  secret:\n    data:\n      a: {generate: 'gen {seed} {seed}'}\n", "at most once", 4),
    ("data:\n  secret:\n    data:\n      a: {count: 0, generate: g}\n", "between 1 and 100", 4),
    # (a case named by a number: YAML reads the key as an int, the lines have its text)
    ("data:\n  secret:\n    data:\n      1: {count: 0, generate: g}\n", "between 1 and 100", 4),
    ("data:\n  secret:\n    data:\n      test_group: g\n", "no valid test case name", 4),
    ("data:\n  secret:\n    include: [nope]\n    data:\n      a: g\n", "include 'nope'", 3),
    ("data:\n  secret:\n    data:\n      a: {solution: x.py, generate: g}\n", "solution must be", 4),
    ("data:\n  secret:\n    data:\n      a: {match: '(', generate: g}\n", "not a regular expression", 4),
    ("data:\n  secret:\n    data:\n      a: {yaml: {x: 1}}\n", "nothing makes this test case's input", 4),
    ("data:\n  secret:\n    data:\n      a: {interaction: x, in: '1'}\n", "interactive", 4),
    ("data:\n  secret:\n    data:\n      a: {generate: g, count: 2}\n      a-1: h\n",
     "two rules make test case secret/a-1", 5),
    ("data:\n  - secret: {}\n", "root's data may not be a numbered list", 1),
    ("[1, 2]\n", "must be a mapping", 1),
    ("data: {secret: {data: {a: 1}\n", "YAML syntax error", 2),
])
def test_mistakes_have_lines(text: str, message: str, line: int | None) -> None:
    plan = plan_of(text)
    found = [(e.message, e.line) for e in plan.errors if message in e.message]
    assert found, plan.errors
    if line is not None:
        assert found[0][1] == line


def test_constants_are_substituted_in_commands() -> None:
    plan = plan_of("data:\n  secret:\n    data:\n      a: gen {{max_n}} {seed}\n", {"max_n": "100"})
    assert plan.cases[0].generate is not None
    assert plan.cases[0].generate.argv()[0] == "100"


def test_block_text_is_the_authors() -> None:
    text = "a:\n  yaml:\n    k: [\"x\", 'y']  # why\n    m: 1\n\n  other: 2\n"
    # an end-of-line comment keeps its column (19), as BAPCtools' ruamel writes it
    assert block_text(text, 2) == "k: [\"x\", 'y']      # why\nm: 1\n"
    assert block_text("yaml: {a: 1}\n", 1) is None


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["data", "sample", "secret", "generate", "count", "in", "copy",
                         "include", "solution", "yaml", "match", "a", ""]), inner, max_size=4),
    max_leaves=12,
))
def test_any_yaml_gives_a_plan_not_an_exception(data: object) -> None:
    import yaml

    plan_of(yaml.safe_dump(data))
