"""Code-Contests-Plus rows: validated tests only, references by language, known-wrong
programs kept for the package, and which checkers the comparator reproduces."""

from __future__ import annotations

import pytest
from helpers.upstream_rows import (
    OWN_CHECKER,
    STOCK_TOKENS,
    SUM,
    SUM_PY2,
    WRONG_CPP,
    ccplus_row,
    sum_tests,
)

from problemtools_py.upstream.checkers import reproduced
from problemtools_py.upstream.problem import NotValidated
from problemtools_py.upstream.sources import READERS


def test_a_row_with_references_wrong_programs_and_its_checker() -> None:
    row = ccplus_row("a", sum_tests(3), [("PY2", SUM_PY2), ("CPP", "int main(){}"),
                                          ("PY3", SUM)],
                     (("CPP", WRONG_CPP), ("PY2", "print 1"), ("JAVA", "class Main {}")))  # fmt: skip
    got = READERS["code-contests-plus"](row, "k")
    assert got.references == (SUM, SUM_PY2)  # (Python 3 first; Python 2 for 2to3)
    assert got.wrong == (("cpp", WRONG_CPP), ("java", "class Main {}"))
    assert got.time_limit_s == 1.0 and got.memory_mb == 256
    assert got.checker == STOCK_TOKENS and got.origin["id"] == "codeforces:a"
    assert got.statement.startswith("Ta\n\n")


def test_submissions_as_a_record_of_lists_as_parquet_may_give_them() -> None:
    row = ccplus_row("b", sum_tests(2), [])
    row["correct_submissions"] = {"language": ["PY3", "CPP"], "code": [SUM, "x"]}
    assert READERS["code-contests-plus"](row, "k").references == (SUM,)


@pytest.mark.parametrize("rates", [(0.5, 0.95), (0.95, None), (0.89, 0.9)])
def test_tests_the_source_does_not_vouch_for(rates: tuple[float | None, ...]) -> None:
    row = ccplus_row("c", sum_tests(2), [("PY3", SUM)], true_positive_rate=rates[0],
                     true_negative_rate=rates[1])  # fmt: skip
    with pytest.raises(NotValidated, match="true positive and negative rates"):
        READERS["code-contests-plus"](row, "k")


def checker(name_call: str, extra: str = "") -> str:
    return (f'#include "testlib.h"\n{extra}int main(int argc, char* argv[]) {{\n'
            f"    setName({name_call});\n    registerTestlibCmd(argc, argv);\n}}\n")  # fmt: skip


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        (STOCK_TOKENS, "wcmp"),
        (checker('"compare ordered sequences of signed int%d numbers", 8 * int(sizeof(long long))'), "ncmp"),
        (checker('"%s", (YES + " or " + NO + " (case insensitive)").c_str()'), "yesno"),
        (checker('"compare two sequences of doubles, max absolute or relative  error = %.7f", EPS',
                 "const double EPS = 1E-6;\n"), "rcmp6"),
        (checker('"compare two sequences of doubles, max absolute or relative  error = %.7f", EPS',
                 "const double EPS = 1E-4;\n"), None),
        (checker('"compare files as sequence of tokens in lines"'), None),  # (lines matter)
        (checker('"compare unordered sequences of signed int%u numbers", 64'), None),
        (OWN_CHECKER, None),
        (STOCK_TOKENS + "// " + "x" * 5000, None),  # (a long source is someone's own)
        ('int main() { /* setName("compare sequences of tokens"); */ }', None),
    ],
)  # fmt: skip
def test_which_checkers_the_comparator_reproduces(source: str, kind: str | None) -> None:
    assert reproduced(source) == kind


def test_a_wrong_programs_file_name_suits_its_compiler() -> None:
    from problemtools_py.upstream.packages import _file_name

    assert _file_name(1, "cpp", "int main(){}") == "wrong_1.cpp"
    assert _file_name(2, "python3", "print(1)") == "wrong_2.py"
    assert _file_name(3, "java", "public final class Solve { }") == "wrong_3/Solve.java"
    assert _file_name(4, "java", "class Hidden { }") == "wrong_4/Main.java"
