"""What the curation reads in a statement: whether it allows several answers (the card's
first drop: there is no checker), and its examples (the card's second drop compares them
with the tests; a package shows them as samples).

Examples are read in the layouts the sources' statements use: Codeforces' and TACO's
``-----Examples-----`` with ``Input``/``Output`` lines, AtCoder's ``-----Sample
Input-----``/``-----Sample Output-----``, CodeChef's ``Input:``/``Output:`` after an
``Example`` heading, HackerEarth's ``SAMPLE INPUT``/``SAMPLE OUTPUT``, Markdown headings
(``### Sample Input 1``), and fenced blocks after them."""

from __future__ import annotations

import re

from problemtools_py.judge.dataset_rule import first_difference

MAX_EXAMPLES = 16
_SEVERAL = re.compile(
    r"(?:(?:print|output|display|return|find)\s+any\s+(?:one\s+)?(?:of\s+them|such|valid|"
    r"correct|possible|suitable|optimal|answer|solution|permutation|sequence|string|array|one)"
    r"|if\s+there\s+(?:are|is|exist|exists)\s+(?:several|multiple|many|more\s+than\s+one)\s+"
    r"(?:\w+\s+){0,3}?(?:answers?|solutions?|ways|outputs|options|possibilities|sequences)"
    r"|any\s+(?:valid|correct|possible|suitable|optimal)\s+(?:answer|solution|output)"
    r"|you\s+(?:can|may)\s+(?:print|output)\s+any"
    r"|(?:several|multiple)\s+(?:correct|valid|possible)\s+(?:answers|solutions|outputs))",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s*(?:-{3,}|#{1,6}|\*\*|=+)?\s*(.*?)\s*(?:-{3,}|\*\*|=+)?\s*$")
_EXAMPLES = re.compile(r"^(?:sample|example)s?(?:\s+(?:tests?|cases?|\d+))?\s*:?$", re.I)
_INPUT = re.compile(r"^(?:(sample|example)\s+)?input(?:\s*\d+)?\s*:?$", re.I)
_OUTPUT = re.compile(r"^(?:(sample|example)\s+)?output(?:\s*\d+)?\s*:?$", re.I)
_STOP = re.compile(
    r"^(?:-{3,}.*|#{1,6}\s.*|(?:note|notes|explanation|constraints|hint|scoring)\b.*)$", re.I
)


def several_answers(statement: str) -> str | None:
    """The words by which ``statement`` allows several answers, or None."""
    match = _SEVERAL.search(statement)
    return " ".join(match.group(0).split()) if match is not None else None


def examples(statement: str) -> list[tuple[str, str]]:
    """The statement's examples, (input, output) each, in order (at most MAX_EXAMPLES)."""
    lines = statement.replace("\r\n", "\n").split("\n")
    found: list[tuple[str, str]] = []
    in_examples = False
    index = 0
    while index < len(lines) and len(found) < MAX_EXAMPLES:
        label = _label(lines[index])
        if _EXAMPLES.match(label):
            in_examples = True
        marker = _INPUT.match(label)
        if marker is not None and (in_examples or marker.group(1)):
            given, index = _block(lines, index + 1)
            out = _OUTPUT.match(_label(lines[index])) if index < len(lines) else None
            if out is not None:
                wanted, index = _block(lines, index + 1)
                found.append((given, wanted))
                continue
            continue
        index += 1
    return found


def _label(line: str) -> str:
    match = _HEADING.match(line)
    text = match.group(1) if match is not None else line
    return text.strip().strip("*").strip()


def _block(lines: list[str], start: int) -> tuple[str, int]:
    """The lines from ``start`` up to the next marker or heading (a fenced block's lines
    when one opens first), as text ending in a newline; and where it stopped."""
    index = start
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index < len(lines) and lines[index].strip().startswith("```"):
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith("```"):
            end += 1
        return _joined(lines[index + 1 : end]), min(end + 1, len(lines))
    end = index
    while end < len(lines):
        label = _label(lines[end])
        if _INPUT.match(label) or _OUTPUT.match(label) or _EXAMPLES.match(label):
            break
        if _STOP.match(lines[end].strip()) or (end > index and _blank_pair(lines, end)):
            break
        end += 1
    stop = end
    while end < len(lines) and not lines[end].strip():
        end += 1
    return _joined(lines[index:stop]), end


def _blank_pair(lines: list[str], at: int) -> bool:
    """Two blank lines end a block (prose follows examples that way in plain text)."""
    return not lines[at].strip() and at + 1 < len(lines) and not lines[at + 1].strip()


def _joined(block: list[str]) -> str:
    while block and not block[-1].strip():
        block = block[:-1]
    return "".join(f"{line.rstrip()}\n" for line in block)


def contradiction(shown: list[tuple[str, str]], tests: tuple[tuple[str, str], ...]) -> str | None:
    """How the tests contradict an example: a test with the example's input (token for
    token) whose expected output the dataset's comparator does not accept as the
    example's; None when none does."""
    expected = {tuple(stdin.split()): (stdin, stdout) for stdin, stdout in tests}
    for number, (given, wanted) in enumerate(shown, start=1):
        test = expected.get(tuple(given.split()))
        if test is None or not given.split():
            continue
        if first_difference(wanted, test[1]) is not None:
            return f"example {number}'s output is {_short(wanted)}, its test's {_short(test[1])}"
    return None


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 40 else flat[:37] + "...")
