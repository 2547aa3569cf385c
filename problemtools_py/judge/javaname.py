"""The class a Java (or Scala) program runs as, and so the name a completion is saved
under (issue 60). javac wants a file named after its public top-level class; a file with
none may be named anything, and `java NAME` then runs the class NAME, which must hold
`main`. So it is the public top-level class when there is one, else the top-level class
whose body holds `main`. Comments, strings and character literals are blanked first: a
class named in a comment (`// public class Main is below`) names nothing, and a nested
class declared before `main` is not the class that holds it."""

from __future__ import annotations

import re

_DECLARATION = re.compile(
    r"\b((?:(?:public|abstract|final|sealed|non-sealed|strictfp|static)\s+)*)"
    r"(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)"
)
_MAIN = re.compile(r"\bstatic\s+(?:final\s+)?void\s+main\s*\(")
_OBJECT = re.compile(r"\bobject\s+([A-Za-z_]\w*)([^{;\n]*)(\{?)")
_SCALA_MAIN = re.compile(r"\bdef\s+main\s*\(")
_LITERAL = re.compile(r'"""(?:\\.|[^\\])*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_BLANKABLE = re.compile(f"{_LITERAL.pattern}|{_COMMENT.pattern}", re.S)


def blank(code: str) -> str:
    """``code`` with its comments and literals replaced by spaces (newlines kept), so
    that positions stay where they were."""
    return _BLANKABLE.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), code)


def top_level_types(code: str) -> list[tuple[str, bool, int, int]]:
    """Each top-level type of blanked ``code``: (name, public, start of its body, end)."""
    found: list[tuple[str, bool, int, int]] = []
    depth, at = 0, 0
    while at < len(code):
        char = code[at]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0 and (match := _DECLARATION.match(code, at)):
            body = code.find("{", match.end())
            if body < 0:
                break
            end = _matching(code, body)
            found.append((match[2], "public" in match[1].split(), body, end))
            at = end + 1
            continue
        at += 1
    return found


def _matching(code: str, opening: int) -> int:
    depth = 0
    for at in range(opening, len(code)):
        if code[at] == "{":
            depth += 1
        elif code[at] == "}":
            depth -= 1
            if depth == 0:
                return at
    return len(code)


def java_class(code: str) -> str | None:
    """The class a Java program's file is named after (see the module's text); None when
    it declares no class."""
    plain = blank(code)
    types = top_level_types(plain)
    public = [name for name, is_public, _, _ in types if is_public]
    if public:
        return public[0]
    main = _MAIN.search(plain)
    for name, _, start, end in types:
        if main is not None and start < main.start() < end:
            return name
    return types[0][0] if types else None


def scala_object(code: str) -> str | None:
    """The object a Scala program runs as (``scala NAME``): the one whose body holds
    ``def main``, else one that ``extends App``; None when neither."""
    plain = blank(code)
    main = _SCALA_MAIN.search(plain)
    app = None
    for match in _OBJECT.finditer(plain):
        end = _matching(plain, match.end() - 1) if match[3] else match.end()
        if main is not None and match.end() <= main.start() < end:
            return match[1]
        if app is None and re.search(r"\bextends\s+App\b", match[2]):
            app = match[1]
    return app


_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.M)
_PUBLIC_MAIN = re.compile(
    r"\b(?:public\s+(?:final\s+)?static|static\s+(?:final\s+)?public)\s+(?:final\s+)?"
    r"void\s+main\s*\("
)
_KOTLIN_MAIN = re.compile(r"^fun\s+main\s*\(", re.M)


def facade(stem: str) -> str:
    """The class Kotlin compiles a file's top-level functions into, less its ``Kt``: the
    file's name, its first letter capitalised, other than letters, digits and ``_`` made
    ``_`` (``hello.kt``: ``HelloKt``; problemtools' ``{Mainclass}``)."""
    name = re.sub(r"[^\w$]", "_", stem)
    return name[:1].upper() + name[1:]


def detect_main(code: str, sources: dict[str, str]) -> str | None:
    """The class DOMjudge's DetectMain runs: of the program's classes, in its sources'
    sorted order, the first top-level Java class holding ``public static void main``, or
    Kotlin's file class of the first file with a top-level ``fun main``; named with its
    package (``bin.Main``). None when no class has one (DOMjudge: a compile error)."""
    for name in sorted(sources):
        plain = blank(sources[name])
        package = _PACKAGE.search(plain)
        prefix = f"{package[1]}." if package else ""
        if code == "kotlin":
            if _KOTLIN_MAIN.search(plain):
                stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
                return f"{prefix}{facade(stem)}Kt"
            continue
        for type_name, _, start, end in top_level_types(plain):
            if any(start < m.start() < end for m in _PUBLIC_MAIN.finditer(plain)):
                return prefix + type_name
    return None
