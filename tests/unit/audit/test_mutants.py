"""The mutation operators (audit.mutants): each makes the one change it names, sites are
numbered the same every time, and a sample of them is the same for the same seed."""

from __future__ import annotations

import pytest

from problemtools_py.audit.mutants import mutants

PROGRAM = """n = int(input())
values = list(map(int, input().split()))
best = max(values)
total = 0
for i in range(1, n):
    if values[i] < 0:
        total += -values[i]
print(total * 2, best)
"""


@pytest.mark.parametrize(("operator", "change", "line_after"), [
    ("compare", "< -> <=", "    if values[i] <= 0:"),
    ("arith", "+ -> -", "        total -= -values[i]"),
    ("arith", "* -> +", "print(total + 2, best)"),
    ("constant", "0 -> 1", "total = 1"),
    ("range", "bound - 1", "for i in range(1, n - 1):"),
    ("range", "bound // 2", "for i in range(1, n // 2):"),
    ("branch", "if body never runs", "    if False:"),
    ("builtin", "max -> min", "best = min(values)"),
    ("negation", "-x -> +x", "        total += +values[i]"),
])  # fmt: skip
def test_each_operator_makes_its_change(operator: str, change: str, line_after: str) -> None:
    found = [m for m in mutants(PROGRAM, 100) if m.operator == operator and m.change == change]
    assert found, [(m.operator, m.change) for m in mutants(PROGRAM, 100)]
    assert any(line_after in m.code.splitlines() for m in found)
    for mutant in found:  # (one change each: the rest of the program as it was)
        differing = [a for a, b in zip(mutant.code.splitlines(), PROGRAM.splitlines(),
                                       strict=True) if a != b]  # fmt: skip
        assert len(differing) == 1


def test_names_are_stable_and_samples_repeat() -> None:
    every = mutants(PROGRAM, 100)
    assert [m.name for m in every] == [m.name for m in mutants(PROGRAM, 100)]
    assert len({m.name for m in every}) == len(every) > 10
    sample = [m.name for m in mutants(PROGRAM, 5, seed=3)]
    assert sample == [m.name for m in mutants(PROGRAM, 5, seed=3)] and len(sample) == 5
    assert mutants("def broken(:\n", 10) == []
