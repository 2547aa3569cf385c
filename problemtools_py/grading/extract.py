"""Which text of a completion is the program: the last fenced code block tagged as Python
(or untagged). A block in another language after it does not hide it; an unterminated or
empty block, or no fence at all, is no code (unless completions are bare programs)."""

from __future__ import annotations

import re

PYTHON_TAGS = frozenset({"", "python", "python3", "py"})
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$", re.MULTILINE)


# Fence tags of other languages -> the judge's language codes (``languages.yaml``); a tag
# that is itself a code of the judge's (``kotlin``, ``rust``, ...) names that language.
TAG_LANGUAGES = {
    **dict.fromkeys(PYTHON_TAGS, "python3"),
    **dict.fromkeys(("cpp", "c++", "cc", "cxx", "hpp"), "cpp"),
    "c": "c",
    "java": "java",
    **dict.fromkeys(("kt", "kotlin"), "kotlin"),
    **dict.fromkeys(("rs", "rust"), "rust"),
    **dict.fromkeys(("go", "golang"), "go"),
    **dict.fromkeys(("js", "javascript", "node"), "javascript"),
    **dict.fromkeys(("cs", "csharp", "c#"), "csharp"),
}


# How callers name languages beyond fence tags: display names ("Python 3", "C++17", "GNU
# C++"), interpreter and compiler names; spaces, case and a C++ standard's year aside.
_NAMED = {
    **dict.fromkeys(("py3", "cpython", "cpython3", "python3.x"), "python3"),
    **dict.fromkeys(("g++", "gnuc++", "gcc"), "cpp"),
    **dict.fromkeys(("nodejs", "ecmascript"), "javascript"),
}
PYTHON2_NAMES = frozenset({"python2", "py2", "python2.7", "pypy2"})
# CodeContests' Solution.Language enum (its contest_problem.proto), as rows carry it: a
# number. 1 is Python 2, 0 unknown.
CODECONTESTS_LANGUAGES = {1: "python2", 2: "cpp", 3: "python3", 4: "java"}
_CPP_STANDARD = re.compile(r"(c\+\+|cpp|g\+\+|gnuc\+\+)(\d\d)?")


def language_named(name: str, known: frozenset[str] = frozenset()) -> str | None:
    """The judge's code for a language as a caller names it (``python``, ``Python 3``,
    ``py``, ``c++17``, ``cpp``, ``Java``, a code of ``known``), or None."""
    key = "".join(name.split()).lower()
    if key in PYTHON2_NAMES:
        return None
    standard = _CPP_STANDARD.fullmatch(key)
    if standard is not None:
        key = "cpp"
    return _NAMED.get(key) or language_of_tag(key, known)


def language_of_tag(tag: str, known: frozenset[str] = frozenset()) -> str | None:
    """The language code a fence tag names (``known``: the judge's codes), or None."""
    tag = tag.lower()
    return TAG_LANGUAGES.get(tag) or (tag if tag in known else None)


def extract_program(
    completion: str,
    languages: frozenset[str] = frozenset({"python3"}),
    raw: bool = False,
    language: str | None = None,
    known: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """(language code, program): the last fenced block in one of ``languages`` (an
    untagged block is Python), or, with ``language``, the last block in that language
    (or untagged). None when there is none. With only Python allowed this is exactly
    :func:`extract_code`, the dataset's rule."""
    if raw:
        return (language or "python3", completion) if completion.strip() else None
    wanted = frozenset({language}) if language else languages
    found: tuple[str, str | None] | None = None
    for tag, body in _blocks(completion):
        code = language if language and tag == "" else language_of_tag(tag, known)
        if code in wanted:
            found = (code, body)
    if found is None or found[1] is None or not found[1].strip():
        return None
    return found[0], found[1]


def extract_code(completion: str, raw: bool = False) -> str | None:
    """The program, or None when there is none (the dataset's rule: Python only)."""
    found = extract_program(completion, raw=raw)
    return found[1] if found is not None else None


def _blocks(completion: str) -> list[tuple[str, str | None]]:
    """Every fenced block: (tag, body, None when it is not closed)."""
    blocks: list[tuple[str, str | None]] = []  # (tag, body or None when unterminated)
    position = 0
    while True:
        opening = _FENCE.search(completion, position)
        if opening is None:
            break
        fence, tag = opening.group(1), opening.group(2).lower()
        start = opening.end() + 1
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        end = closing.search(completion, start)
        if end is None:
            blocks.append((tag, None))
            break
        blocks.append((tag, completion[start : end.start()]))
        position = end.end()
    return blocks
