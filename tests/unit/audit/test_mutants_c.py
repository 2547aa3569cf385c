"""The C and C++ token mutator (audit.mutants_c): one token or condition per mutant;
comments, strings, characters, preprocessor lines and template brackets left alone."""

from __future__ import annotations

from problemtools_py.audit.mutants_c import c_mutants

PROGRAM = """#include <vector>
#include <cstdio>
// a < b in a comment, "x < y" in a string
int main() {
    std::vector<long long> v(3);
    long long n = 0; scanf("%lld", &n);
    for (int i = 0; i < n; i += 1) v[i % 3] += i;
    if (n == 5) printf("<%d>\\n", 'a' < 'b');
    printf("%lld\\n", v[0] - v[1]);
}
"""


def test_each_operator_changes_one_place() -> None:
    found = {(m.operator, m.change, m.line) for m in c_mutants(PROGRAM, 100)}
    assert ("compare", "< -> <=", 7) in found and ("compare", "== -> !=", 8) in found
    assert ("arith", "+= -> -=", 7) in found and ("arith", "- -> +", 9) in found
    assert ("constant", "5 -> 6", 8) in found and ("narrow", "long long -> int", 6) in found
    assert ("branch", "if body never runs", 8) in found
    for mutant in c_mutants(PROGRAM, 100):
        assert mutant.code.splitlines()[:3] == PROGRAM.splitlines()[:3]  # (includes, comment)
        assert "std::vector<" in mutant.code and "> v(" in mutant.code  # (template)
        assert '"<%d>\\n"' in mutant.code  # (a string literal)


def test_the_branch_keeps_its_condition() -> None:
    (branch,) = [m for m in c_mutants(PROGRAM, 100) if m.operator == "branch"]
    assert "if (0 && (n == 5)) printf" in branch.code


def test_a_sample_repeats() -> None:
    first = [m.name for m in c_mutants(PROGRAM, 4, seed=7)]
    assert first == [m.name for m in c_mutants(PROGRAM, 4, seed=7)] and len(first) == 4
