"""Language codes and file-name rules of the format (seed table and the spec appendix).

This is what the model needs to name a program's language; how to compile and run each
language lives with the judging code."""

from __future__ import annotations

import re

# code -> (name, default entry point or None)
KNOWN_LANGUAGES: dict[str, tuple[str, str | None]] = {
    "ada": ("Ada", None),
    "algol68": ("Algol 68", None),
    "apl": ("APL", None),
    "bash": ("Bash", None),
    "c": ("C", None),
    "cgmp": ("C with GMP", None),
    "cobol": ("COBOL", None),
    "cpp": ("C++", None),
    "cppgmp": ("C++ with GMP", None),
    "crystal": ("Crystal", None),
    "csharp": ("C#", None),
    "d": ("D", None),
    "dart": ("Dart", None),
    "elixir": ("Elixir", None),
    "erlang": ("Erlang", None),
    "forth": ("Forth", None),
    "fortran": ("Fortran", None),
    "fsharp": ("F#", None),
    "gerbil": ("Gerbil", None),
    "go": ("Go", None),
    "haskell": ("Haskell", None),
    "java": ("Java", "Main.java"),
    "javaalgs4": ("Java with Algs4", "Main.java"),
    "javascript": ("JavaScript", "main.js"),
    "julia": ("Julia", None),
    "kotlin": ("Kotlin", "MainKt"),
    "lisp": ("Common Lisp", "main.lisp"),
    "lua": ("Lua", None),
    "modula2": ("Modula-2", None),
    "nim": ("Nim", None),
    "objectivec": ("Objective-C", None),
    "ocaml": ("OCaml", None),
    "octave": ("Octave", None),
    "odin": ("Odin", None),
    "pascal": ("Pascal", None),
    "perl": ("Perl", None),
    "php": ("PHP", "main.php"),
    "prolog": ("Prolog", None),
    "python2": ("Python 2", "main.py"),
    "python3": ("Python 3", "main.py"),
    "python3numpy": ("Python 3 with NumPy", "main.py"),
    "racket": ("Racket", None),
    "ruby": ("Ruby", None),
    "rust": ("Rust", None),
    "scala": ("Scala", None),
    "simula": ("Simula", None),
    "smalltalk": ("Smalltalk", None),
    "snobol": ("Snobol", None),
    "swift": ("Swift", None),
    "typescript": ("TypeScript", None),
    "visualbasic": ("Visual Basic", None),
    "zig": ("Zig", None),
}

# Extensions that decide a language. ".py" is Python 3 unless a shebang names python2.
EXTENSIONS: dict[str, str] = {
    ".adb": "ada",
    ".ads": "ada",
    ".a68": "algol68",
    ".apl": "apl",
    ".sh": "bash",
    ".c": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".C": "cpp",
    ".cr": "crystal",
    ".cs": "csharp",
    ".d": "d",
    ".dart": "dart",
    ".ex": "elixir",
    ".erl": "erlang",
    ".fth": "forth",
    ".4th": "forth",
    ".forth": "forth",
    ".frt": "forth",
    ".f90": "fortran",
    ".fs": "fsharp",
    ".ss": "gerbil",
    ".go": "go",
    ".hs": "haskell",
    ".java": "java",
    ".js": "javascript",
    ".jl": "julia",
    ".kt": "kotlin",
    ".lisp": "lisp",
    ".cl": "lisp",
    ".lua": "lua",
    ".mod": "modula2",
    ".def": "modula2",
    ".nim": "nim",
    ".m": "objectivec",
    ".ml": "ocaml",
    ".odin": "odin",
    ".pas": "pascal",
    ".php": "php",
    ".pm": "perl",
    ".pl": "prolog",
    ".py": "python3",
    ".py3": "python3",
    ".py2": "python2",
    ".rkt": "racket",
    ".rb": "ruby",
    ".rs": "rust",
    ".scala": "scala",
    ".sim": "simula",
    ".st": "smalltalk",
    ".sno": "snobol",
    ".swift": "swift",
    ".ts": "typescript",
    ".vb": "visualbasic",
    ".zig": "zig",
}
_PY2_SHEBANG = re.compile(r"^#!.*python2")


def language_of_file(name: str, first_line: str = "") -> str | None:
    """The language a single source file names by its extension (and shebang for .py)."""
    dot = name.rfind(".")
    if dot <= 0:
        return None
    ext = name[dot:]
    lang = EXTENSIONS.get(ext) or EXTENSIONS.get(ext.lower())
    if lang == "python3" and ext == ".py" and _PY2_SHEBANG.match(first_line):
        return "python2"
    return lang


def language_of_program(names: list[tuple[str, str]]) -> str | None:
    """The language of a program made of ``(file name, first line)`` pairs: the language
    of its files when they agree, else None."""
    found = {language_of_file(n, first) for n, first in names}
    found.discard(None)
    if len(found) == 1:
        return found.pop()
    if found == {"c", "cpp"}:
        return "cpp"
    return None
