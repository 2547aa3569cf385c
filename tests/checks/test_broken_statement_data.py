"""Statement and test-data checks, each triggered on a copy of a sample broken one way."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.broken import Broken, E, W, assert_reported
from helpers.builders import append, case, move, remove, replace, write

TEX = "problem_statement/problem.en.tex"
MTEX = "statement/problem.en.tex"

STATEMENT_CASES = [
    Broken("statement-dir-missing", "hello", lambda p: remove(p, "problem_statement"), E,
           "statement", "statement directory problem_statement/ is missing"),
    Broken("statement-none", "hello", lambda p: move(p, TEX, "problem_statement/statement.tex"),
           E, "statement", "no statement found"),
    Broken("statement-two-for-en", "hello", lambda p: write(p, "problem_statement/problem.tex",
           "\\problemname{Hello}\n"), E, "statement", "more than one statement for language 'en'"),
    Broken("statement-pdf-beside-the-tex", "hello", lambda p: write(p,
           "problem_statement/problem.en.pdf", "%PDF-1.5\n"), W, "statement",
           "more than one statement for language 'en' (problem_statement/problem.en.pdf, "
           "problem_statement/problem.en.tex): the format asks for one file per language; the "
           "PDF is taken as problem_statement/problem.en.tex rendered",
           "problem_statement/problem.en.tex"),
    Broken("statement-modern-no-lang", "different", lambda p: move(p, MTEX,
           "statement/problem.tex"), E, "statement", "must name their language"),
    Broken("statement-legacy-markdown", "hello", lambda p: write(p, "problem_statement/problem.sv.md",
           "Hej\n"), E, "statement", "Markdown statements are not part of the legacy format"),
    Broken("statement-no-problemname", "hello", lambda p: replace(p, TEX, "\\problemname{Hello}",
           "% \\problemname{Hello}"), E, "statement", "no \\problemname{...}", TEX),
    Broken("statement-problemname-unclosed", "hello", lambda p: replace(p, TEX,
           "\\problemname{Hello}", "\\problemname{Hello"), E, "statement", "is never closed", TEX, 1),
    Broken("statement-problemname-empty", "hello", lambda p: replace(p, TEX, "\\problemname{Hello}",
           "\\problemname{}"), E, "statement", "\\problemname{} is empty", TEX, 1),
    Broken("statement-latex-name", "hello", lambda p: replace(p, TEX, "\\problemname{Hello}",
           "\\problemname{Hello $\\pi$}"), W, "statement", "plainproblemname", TEX, 1),
    Broken("statement-not-utf8", "hello", lambda p: write(p, TEX,
           b"\\problemname{Hello}\nCaf\xe9\n"), E, "encoding", "not valid UTF-8", TEX, 2),
    Broken("statement-bom", "hello", lambda p: write(p, TEX,
           b"\xef\xbb\xbf" + (p / TEX).read_bytes()), E, "encoding", "byte order mark", TEX, 1),
    Broken("statement-lang-without-name", "different", lambda p: write(p,
           "statement/problem.sv.tex", "\\problemname{Ett annat problem}\n"), E, "statement",
           "statement in 'sv' but problem.yaml has no name for 'sv'", "problem.yaml"),
    Broken("statement-name-without-lang", "different", lambda p: replace(p, "problem.yaml",
           "  en: A Different Problem", "  en: A Different Problem\n  de: Ein anderes Problem"),
           E, "statement", "names the problem in 'de' but there is no statement in 'de'"),
]

DATA_CASES = [
    Broken("data-missing", "hello", lambda p: remove(p, "data"), E, "data",
           "data/ directory is missing"),
    Broken("secret-missing", "hello", lambda p: remove(p, "data/secret"), E, "data",
           "data/secret is missing"),
    Broken("sample-missing", "hello", lambda p: remove(p, "data/sample"), W, "data",
           "data/sample is missing"),
    Broken("group-empty", "hello", lambda p: (p / "data/secret/extra").mkdir(), E, "data",
           "group secret/extra has no test cases", "data/secret/extra"),
    Broken("sample-empty", "hello", lambda p: [remove(p, f"data/sample/{n}") for n in
           ("1.in", "1.ans", "2.in", "2.ans")], W, "data", "group sample is empty"),
    Broken("in-without-ans", "hello", lambda p: remove(p, "data/secret/02.ans"), E, "data",
           "has an .in file but no .ans file", "data/secret/02.in"),
    Broken("ans-without-in", "hello", lambda p: remove(p, "data/secret/02.in"), E, "data",
           "has an .ans file but no .in file", "data/secret/02.ans"),
    Broken("desc-unmatched", "hello", lambda p: write(p, "data/secret/09.desc", "why\n"), E,
           "data", "'.desc' file is not matched to a test case", "data/secret/09.desc"),
    Broken("hint-unmatched", "hello", lambda p: write(p, "data/secret/09.hint", "try\n"), E,
           "data", "'.hint' file is not matched", "data/secret/09.hint"),
    Broken("legacy-out-file", "hello", lambda p: write(p, "data/sample/1.out", "Hello World!\n"),
           W, "data", "'.out' files are not part of the legacy format"),
    # (one with no case at all: no file of legacy's, so ignored, as problemtools ignores it)
    Broken("legacy-stray-out-file", "hello", lambda p: write(p, "data/secret/a.out", "1\n"),
           W, "data", "'.out' files are not part of the legacy format; ignored", "data/secret/a.out"),
    Broken("modern-desc-file", "different", lambda p: write(p, "data/secret/01-small.desc",
           "small\n"), W, "data", "'.desc' files became 'description:'"),
    Broken("modern-out-in-secret", "different", lambda p: write(p, "data/secret/01-small.out",
           "0\n"), E, "data", "'.out' files are only allowed for samples"),
    Broken("stray-file-in-group", "hello", lambda p: write(p, "data/secret/README", "notes\n"), W,
           "data", "belongs to no test case", "data/secret/README"),
    Broken("in-crlf", "hello", lambda p: write(p, "data/secret/01.in", b"A\r\n"), W, "encoding",
           "carriage return", "data/secret/01.in", 1),
    Broken("ans-no-final-newline", "hello", lambda p: write(p, "data/secret/01.ans", "Hello A!"),
           W, "encoding", "does not end with a newline", "data/secret/01.ans"),
    Broken("in-not-utf8", "hello", lambda p: write(p, "data/secret/01.in", b"\xff\n"), W,
           "encoding", "not valid UTF-8", "data/secret/01.in", 1),
    Broken("testdata-syntax", "bigsum", lambda p: append(p, "data/secret/testdata.yaml",
           "range: [\n"), E, "test-group", "YAML syntax error", "data/secret/testdata.yaml"),
    Broken("testdata-schema", "bigsum", lambda p: append(p, "data/testdata.yaml",
           "on_reject: maybe\n"), E, "test-group", "on_reject: 'maybe' is not one of",
           "data/testdata.yaml", 5),
    Broken("testdata-range", "bigsum", lambda p: replace(p, "data/secret/group1/testdata.yaml",
           "range: 0 30", "range: zero to thirty"), E, "test-group", "range"),
    Broken("testdata-unknown-key", "bigsum", lambda p: append(p, "data/testdata.yaml",
           "grader_flag: sum\n"), W, "test-group", "did you mean 'grader_flags'?"),
    Broken("testdata-scoring-key-pass-fail", "hello", lambda p: write(p,
           "data/secret/testdata.yaml", "accept_score: 5\n"), E, "test-group",
           "accept_score is only for scoring problems", "data/secret/testdata.yaml", 1),
    Broken("ignore-sample-with-break", "bigsum", lambda p: replace(p, "data/testdata.yaml",
           "on_reject: continue", "grader_flags: sum ignore_sample"), W, "test-group",
           "ignore_sample with on_reject: break"),
    Broken("ignore-sample-not-root", "bigsum", lambda p: replace(p, "data/secret/testdata.yaml",
           "sum accept_if_any_accepted", "sum ignore_sample"), W, "test-group",
           "ignore_sample only applies to the root group"),
    Broken("modern-test-group-unknown-key", "different", lambda p: append(p,
           "data/secret/test_group.yaml", "colour: red\n"), E, "test-group",
           "colour: unknown key"),
    Broken("modern-test-group-type", "different", lambda p: append(p,
           "data/secret/test_group.yaml", "full_feedback: sometimes\n"), E, "test-group",
           "full_feedback: 'sometimes' is not of type 'boolean'"),
    Broken("modern-scoring-key-pass-fail", "different", lambda p: append(p,
           "data/secret/test_group.yaml", "max_score: 50\n"), E, "test-group",
           "max_score is only for scoring problems"),
    Broken("modern-both-group-files", "different", lambda p: write(p,
           "data/secret/testdata.yaml", "{}\n"), W, "test-group",
           "both test_group.yaml and testdata.yaml"),
    Broken("modern-secret-cases-and-groups", "different", lambda p: case(p,
           "data/secret/g1/01"), E, "data", "must hold test cases or groups, not both"),
    Broken("modern-nested-group", "different", lambda p: [move(p, f"data/secret/{n}",
           f"data/secret/g1/{n}") for n in ("01-small.in", "01-small.ans")] + [case(p,
           "data/secret/g1/deeper/x1")], E, "data", "one level deep"),
    Broken("modern-sample-group", "different", lambda p: case(p, "data/sample/g/x1"), E, "data",
           "data/sample may not contain groups"),
    Broken("modern-case-named-test-group", "different", lambda p: case(p,
           "data/secret/test_group"), E, "data", "may not be named 'test_group'"),
    Broken("modern-group-case-name-clash", "different", lambda p: case(p, "data/sample/1/x1"), E,
           "data", "same name as a test case"),
    Broken("modern-sample-max-score", "different", lambda p: write(p, "data/sample/test_group.yaml",
           "max_score: 10\n"), E, "test-group", "max_score is not allowed for data/sample"),
    Broken("modern-require-pass-unknown", "different", lambda p: append(p,
           "data/secret/test_group.yaml", "require_pass: [group9]\n"), E, "test-group",
           "data/secret may only require 'sample'"),
    Broken("modern-require-pass-not-earlier", "different", lambda p: [
        move(p, "data/secret/01-small.in", "data/secret/g1/01-small.in"),
        move(p, "data/secret/01-small.ans", "data/secret/g1/01-small.ans"),
        move(p, "data/secret/02-max.in", "data/secret/g2/02-max.in"),
        move(p, "data/secret/02-max.ans", "data/secret/g2/02-max.ans"),
        move(p, "data/secret/03-random.in", "data/secret/g2/03-random.in"),
        move(p, "data/secret/03-random.ans", "data/secret/g2/03-random.ans"),
        write(p, "data/secret/g1/test_group.yaml", "require_pass: g2\n")], E, "test-group",
        "require_pass: 'secret/g2' is not an earlier test group", "data/secret/g1/test_group.yaml"),
    Broken("modern-case-yaml-unknown-key", "different", lambda p: write(p,
           "data/secret/01-small.yaml", "hints: try harder\n"), E, "test-case",
           "hints: unknown key (did you mean 'hint'?)", "data/secret/01-small.yaml", 1),
    Broken("modern-case-yaml-syntax", "different", lambda p: write(p,
           "data/secret/01-small.yaml", "args: [a\n"), E, "test-case", "YAML syntax error"),
    Broken("interactive-sample-no-interaction", "divisor", lambda p: replace(p, "problem.yaml",
           "validation: custom", "validation: custom interactive"), W, "data",
           "interactive sample sample/1 has no .interaction file"),
]


@pytest.mark.parametrize("broken", STATEMENT_CASES, ids=[c.id for c in STATEMENT_CASES])
def test_broken_statement(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)


@pytest.mark.parametrize("broken", DATA_CASES, ids=[c.id for c in DATA_CASES])
def test_broken_data(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    assert_reported(broken, copy_sample)


def test_a_directory_no_part_of_the_format_holds_no_test_cases(
    copy_sample: Callable[..., Path],
) -> None:
    """An old draft's data/invalid_inputs/ (the format's is invalid_input/): one warning
    for the entry, none of its files taken for a test case without an answer."""
    from helpers.packages import verify

    root = copy_sample("gensum")
    case(root, "data/invalid_inputs/too_big", "1\n99999999999\n")
    report = verify(root, ("config", "data"))
    about = [(f.severity.value, f.path) for f in report.findings if "invalid_inputs" in (f.path or "")]
    assert about == [("warning", "data/invalid_inputs")]
