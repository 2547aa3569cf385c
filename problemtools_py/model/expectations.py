"""What a submission claims: from its directory (both format versions) or from the seed's
``@EXPECTED_RESULT@:`` tag and DOMjudge's ``@EXPECTED_RESULTS@:`` list."""

from __future__ import annotations

import dataclasses
import re

from problemtools_py.model.problem import CaseRule, Expectation, Tag, TagProblem
from problemtools_py.verdicts import REJECTED, SPELLINGS, Verdict, parse_verdict
from problemtools_py.yamlfile import YamlDoc

REJECT = REJECTED

LEGACY_DIRS: dict[str, Expectation] = {
    "accepted": Expectation("directory accepted/", permitted=frozenset({Verdict.AC})),
    # Judged on the final result (AC with less than the best score), not per test case.
    "partially_accepted": Expectation("directory partially_accepted/", partially_accepted=True),
    "wrong_answer": Expectation(
        "directory wrong_answer/",
        permitted=frozenset({Verdict.AC, Verdict.WA}),
        required=frozenset({Verdict.WA}),
    ),
    "time_limit_exceeded": Expectation(
        "directory time_limit_exceeded/",
        permitted=frozenset({Verdict.AC, Verdict.WA, Verdict.TLE}),
        required=frozenset({Verdict.TLE}),
    ),
    "run_time_error": Expectation(
        "directory run_time_error/", required=frozenset({Verdict.RTE, Verdict.MLE})
    ),
}

LEGACY_CLAIMS = tuple(LEGACY_DIRS)  # the directories a legacy submission may lie in

MODERN_DIRS: dict[str, Expectation] = {
    "accepted": Expectation("directory accepted/", permitted=frozenset({Verdict.AC})),
    "rejected": Expectation("directory rejected/", required=REJECT),
    "wrong_answer": Expectation(
        "directory wrong_answer/",
        permitted=frozenset({Verdict.AC, Verdict.WA}),
        required=frozenset({Verdict.WA}),
    ),
    "time_limit_exceeded": Expectation(
        "directory time_limit_exceeded/",
        permitted=frozenset({Verdict.AC, Verdict.TLE}),
        required=frozenset({Verdict.TLE}),
    ),
    "run_time_error": Expectation(
        "directory run_time_error/",
        permitted=frozenset({Verdict.AC, Verdict.RTE, Verdict.MLE, Verdict.OLE}),
        required=frozenset({Verdict.RTE, Verdict.MLE, Verdict.OLE}),
    ),
    "brute_force": Expectation(
        "directory brute_force/",
        permitted=frozenset({Verdict.AC, Verdict.RTE, Verdict.MLE, Verdict.OLE, Verdict.TLE}),
        required=frozenset({Verdict.RTE, Verdict.MLE, Verdict.OLE, Verdict.TLE}),
    ),
}

# The seed's @EXPECTED_RESULT@ values.
_SEED_VALUES: dict[str, tuple[frozenset[Verdict] | None, frozenset[Verdict] | None]] = {
    "AC": (frozenset({Verdict.AC}), None),
    "RE": (None, REJECT),
    "WA": (frozenset({Verdict.AC, Verdict.WA}), frozenset({Verdict.WA})),
    "TLE": (frozenset({Verdict.AC, Verdict.WA, Verdict.TLE}), frozenset({Verdict.TLE})),
    "RTE": (None, frozenset({Verdict.RTE, Verdict.MLE})),
}

# DOMjudge's @EXPECTED_RESULTS@ names (and Kattis' long names, our codes) -> our verdicts:
# every spelling verdicts.py owns but the judge's own error, which no submission claims.
_LIST_NAMES: dict[str, Verdict] = {
    name: verdict
    for verdict, (_, domjudge, others) in SPELLINGS.items()
    if verdict is not Verdict.JE
    for name in (verdict.value, domjudge, *others)
}

# What DOMjudge does with a tag we refuse (SubmissionService::parseExpectedAnnotation).
NOT_IMPORTED = "DOMjudge does not import such a submission"
UNMATCHED = "DOMjudge keeps the names, which no verdict matches: a person checks the result"
TWO_LISTS = "two lists of expected results (an @EXPECTED_SCORE@ that is no number is one)"
UNKNOWN_NAMES = "unknown verdict(s) in @EXPECTED_RESULTS@"
TAG_RE = re.compile(r"@EXPECTED_(RESULTS?|SCORE)@\s*:?\s*(.*)", re.IGNORECASE)
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def find_tags(text: str, rel: str) -> list[Tag]:
    tags = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = TAG_RE.search(line)
        if match:
            value = match.group(2).strip().rstrip("*/#-;").strip()
            tags.append(Tag("EXPECTED_" + match.group(1).upper(), value, rel, number))
    return tags


def _from_tag(tag: Tag, scoring: bool) -> tuple[Expectation | None, str | None]:
    source = f"@{tag.kind}@: {tag.value}"
    if tag.kind == "EXPECTED_RESULT" or tag.kind == "EXPECTED_SCORE":
        value = tag.value.split()[0] if tag.value.split() else ""
        if _NUMBER.match(value):
            if not scoring:
                return None, f"{source}: a score is only allowed on a scoring problem"
            score = float(value)  # the final score; test cases may fail on the way
            return Expectation(source, score=(score, score)), None
        if tag.kind == "EXPECTED_RESULT" and value.upper() == "CE":
            return Expectation(source, compile_error=True), None
        if tag.kind == "EXPECTED_RESULT" and value.upper() in _SEED_VALUES:
            permitted, required = _SEED_VALUES[value.upper()]
            return Expectation(source, permitted=permitted, required=required), None
        if tag.kind == "EXPECTED_SCORE":  # (DOMjudge reads one that is no number as results)
            return _from_tag(Tag("EXPECTED_RESULTS", tag.value, tag.rel, tag.line), scoring)
        allowed = "AC, RE, WA, TLE, RTE, CE or a score"
        return None, f"unknown expected result '{tag.value}' (expected {allowed})"
    names = [n.strip().upper() for n in tag.value.split(",") if n.strip()]
    unknown = [n for n in names if n not in _LIST_NAMES]
    if not names or unknown:
        return None, f"{UNKNOWN_NAMES}: {', '.join(unknown) or '(empty)'}"
    verdicts = frozenset(_LIST_NAMES[n] for n in names)
    if verdicts == {Verdict.CE}:
        return Expectation(source, compile_error=True), None
    if Verdict.CE in verdicts:  # either it does not compile, or it runs to one of the others
        runs = verdicts - {Verdict.CE}
        return Expectation(
            source, permitted=runs | {Verdict.AC}, required=runs, compile_error_ok=True
        ), None
    # DOMjudge/BAPCtools: the final verdict is one of these, every test is AC or one of these.
    return Expectation(source, permitted=verdicts | {Verdict.AC}, required=verdicts), None


def _extra_tag(tags: list[Tag]) -> TagProblem | None:
    """The tag too many, as DOMjudge counts them: one file of a submission carries its
    tags, at most one list of results and one score (``@EXPECTED_RESULTS@`` beside
    ``@EXPECTED_SCORE@``), or the seed's one ``@EXPECTED_RESULT@``."""
    files = list(dict.fromkeys(tag.rel for tag in tags))
    if len(files) > 1:
        second = next(tag for tag in tags if tag.rel == files[1])
        return TagProblem(
            second.rel,
            second.line,
            f"@EXPECTED_…@ tags in more than one file of "
            f"this submission ({files[0]} too): one file carries them",
            domjudge=NOT_IMPORTED,
        )
    kinds = [("SCORE" if tag.kind == "EXPECTED_SCORE" else "RESULT") for tag in tags]
    for index, kind in enumerate(kinds):
        if kind in kinds[:index]:
            tag = tags[index]
            name = "@EXPECTED_SCORE@" if kind == "SCORE" else "@EXPECTED_RESULT(S)@"
            text = f"more than one {name} tag; it must occur once"
            return TagProblem(tag.rel, tag.line, text, domjudge=NOT_IMPORTED)
    return None


def _from_tags(tags: list[Tag], scoring: bool) -> tuple[Expectation | None, str | None]:
    """One tag's expectation, or DOMjudge's pair: the results of one and the score of
    the other (``@EXPECTED_RESULTS@: CORRECT`` beside ``@EXPECTED_SCORE@: 60``)."""
    found = [_from_tag(tag, scoring) for tag in tags]
    for _, problem in found:
        if problem:
            return None, problem
    if len(found) == 1:
        return found[0]
    results, score = sorted(
        (e for e, _ in found if e is not None), key=lambda e: e.score is not None
    )
    if results.score is None and score.score is None:  # (a score that is no number: results)
        return None, TWO_LISTS
    if results.score is not None or score.score is None:  # (two scores: a number each)
        return None, "@EXPECTED_RESULT@ and @EXPECTED_SCORE@ both give a score; one may"
    return dataclasses.replace(
        results, source=f"{results.source} {score.source}", score=score.score
    ), None


def resolve(
    category: str | None, tags: list[Tag], modern: bool, scoring: bool
) -> tuple[Expectation | None, list[TagProblem]]:
    """The expectation of a submission and the problems found with its tags."""
    dirs = MODERN_DIRS if modern else LEGACY_DIRS
    problems: list[TagProblem] = []
    by_dir = dirs.get(category) if category else None
    extra = _extra_tag(tags)
    if extra is not None:
        problems.append(extra)
        return by_dir, problems
    if not tags:
        if by_dir is None and not modern:  # the seed: "If none are specified, it defaults to AC"
            return Expectation("default (no tag)", permitted=frozenset({Verdict.AC})), problems
        return by_dir, problems
    from_tag, problem = _from_tags(tags, scoring)
    if problem:
        # where a 2023-07 or later directory decides, a tag (DOMjudge's extension, not the
        # format's) that cannot be read changes nothing: a warning, not an error
        decided = modern and by_dir is not None
        domjudge = {TWO_LISTS: NOT_IMPORTED}.get(problem)  # (what DOMjudge does with it)
        domjudge = UNMATCHED if problem.startswith(UNKNOWN_NAMES) else domjudge
        problems.append(TagProblem(tags[0].rel, tags[0].line, problem, not decided, domjudge))
        return by_dir, problems
    if by_dir is None:
        return from_tag, problems
    # In a standard directory the directory decides (as DOMjudge does); say so on conflict.
    if from_tag is not None and _meaning(from_tag) != _meaning(by_dir) and from_tag.score is None:
        problems.append(
            TagProblem(
                tags[0].rel,
                tags[0].line,
                f"tag disagrees with {by_dir.source}, which decides",
                False,
            )
        )
    if from_tag is not None and from_tag.score is not None:
        combined = Expectation(
            f"{by_dir.source} {from_tag.source}",
            by_dir.permitted,
            by_dir.required,
            from_tag.score,
            partially_accepted=by_dir.partially_accepted,
        )
        return combined, problems
    return by_dir, problems


def _meaning(expectation: Expectation) -> tuple[object, object]:
    """What an expectation permits and requires, as judged: requiring AC where only AC is
    permitted (``@EXPECTED_RESULTS@: CORRECT``) says what ``accepted/`` says."""
    required = expectation.required
    if expectation.permitted == frozenset({Verdict.AC}) and required == frozenset({Verdict.AC}):
        required = None
    return expectation.permitted, required


RULE_KEYS = frozenset(
    {
        "language",
        "entrypoint",
        "authors",
        "model_solution",
        "permitted",
        "required",
        "score",
        "message",
        "use_for_time_limit",
    }
)


def _expand_braces(pattern: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", pattern)
    if not match:
        return [pattern]
    head, tail = pattern[: match.start()], pattern[match.end() :]
    return [x for alt in match.group(1).split(",") for x in _expand_braces(head + alt + tail)]


def glob_matches(pattern: str, path: str) -> bool:
    """submissions.yaml globs: ``*`` stays within one path component, braces expand; a
    pattern matches a path when it matches the path or one of its parent directories."""
    parts = path.split("/")
    candidates = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for alt in _expand_braces(pattern):
        regex = re.compile("".join("[^/]*" if c == "*" else re.escape(c) for c in alt) + r"\Z")
        if any(regex.match(c) for c in candidates):
            return True
    return False


# The format since 2023-07 knows four verdicts; running out of memory or over the output
# limit is a run-time error there (BAPCtools reads OLE so too).
MODERN_RTE = frozenset({Verdict.RTE, Verdict.MLE, Verdict.OLE})


def _verdict_set(value: object) -> frozenset[Verdict] | None:
    """A submissions.yaml verdict list (the schema reports names that are no verdict)."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        found = {v for v in map(parse_verdict, value) if v is not None}
        return frozenset(found | MODERN_RTE if found & MODERN_RTE else found)
    return None


def _score(value: object) -> tuple[float, float] | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (float(value), float(value))
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) for v in value)
    ):
        return (float(value[0]), float(value[1]))
    return None


def _case_rules(rule: dict[str, object], prefix: str = "") -> list[CaseRule]:
    """Nested keys that are not rule keys are test-case/group globs with rules of their own."""
    found: list[CaseRule] = []
    for key, value in rule.items():
        if key in RULE_KEYS or not isinstance(value, dict):
            continue
        glob = f"{prefix}/{key}" if prefix else str(key)
        found.append(
            CaseRule(
                glob, _verdict_set(value.get("permitted")), _verdict_set(value.get("required"))
            )
        )
        found.extend(_case_rules(value, glob))
    return found


def apply_rules(base: Expectation | None, rel: str, rules: YamlDoc) -> Expectation | None:
    """Apply the rules of ``submissions/submissions.yaml`` matching ``rel`` (a path starting
    with ``submissions/``). A key naming the submission's directory replaces that
    directory's default; other matching keys narrow ``permitted``, and add their test-group
    rules, ``message`` and ``use_for_time_limit``."""
    if not isinstance(rules.data, dict):
        return base
    path = rel.removeprefix("submissions/")
    directory = path.split("/", 1)[0]
    result = base
    for pattern, rule in rules.data.items():
        if not isinstance(rule, dict) or not glob_matches(str(pattern), path):
            continue
        permitted = _verdict_set(rule.get("permitted"))
        required = _verdict_set(rule.get("required"))
        if result is None or pattern == directory:
            result = Expectation(f"submissions.yaml '{pattern}'", permitted, required)
        else:
            if permitted is not None and result.permitted is not None:
                permitted &= result.permitted
            result = dataclasses.replace(
                result,
                source=f"{result.source}, submissions.yaml '{pattern}'",
                permitted=permitted if permitted is not None else result.permitted,
                required=required if required is not None else result.required,
            )
        score = _score(rule.get("score"))
        message = rule.get("message")
        use = rule.get("use_for_time_limit")
        language, entrypoint = rule.get("language"), rule.get("entrypoint")
        result = dataclasses.replace(
            result,
            language=language if isinstance(language, str) else result.language,
            entrypoint=entrypoint if isinstance(entrypoint, str) else result.entrypoint,
            score=score if score is not None else result.score,
            case_rules=result.case_rules + tuple(_case_rules(rule)),
            message=message if isinstance(message, str) else result.message,
            time_limit_use=use if use in (False, "lower", "upper") else result.time_limit_use,
        )
    return result
