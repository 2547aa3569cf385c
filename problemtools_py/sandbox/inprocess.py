"""Running a Python 3 program inside the sandbox server's own (forked, sandboxed)
interpreter instead of starting a new one: the fork-server fast path.

The server imports the modules contest programs use most before it serves, so a forked
child has them already; the standard library is bound read-only into the sandbox at its
own path for the rest."""

from __future__ import annotations

import _imp
import builtins
import codecs
import os
import signal
import sys
import time
import types

from problemtools_py.sandbox import pylife, pystart
from problemtools_py.sandbox.records import NamedTuple

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    from typing import TextIO

    Streams = tuple[TextIO, TextIO, TextIO]

# Imported once in the server, and by a lean init those its program names (see zygote):
# every forked run finds them in sys.modules.
PRELOAD = (
    "array",
    "bisect",
    "collections",
    "copy",
    "decimal",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "math",
    "operator",
    "random",
    "re",
    "string",
    "typing",
)
# Imported too by the server (not by a lean init, whose programs never compile): the
# modules of the compile step of languages.yaml's python3, which the server runs in
# process (see COMMAND), ~5 ms of every Python program's build.
BUILD_PRELOAD = ("py_compile",)
# Codecs a new python3 imports at their first use (``open(..., encoding="ascii")``, a
# ``decode``): looked up once by an init whose program may name one, so that each run
# finds them cached instead of importing one (~0.4 ms and a hundred page faults a run).
CODECS = ("ascii", "latin-1", "utf-8")
CODEC_USERS = frozenset({"open", "decode", "encode", "TextIOWrapper"})


def preload(names: set[str] | None = None, code: types.CodeType | None = None) -> None:
    """Import the modules of PRELOAD and BUILD_PRELOAD (the server's), or those of PRELOAD
    in ``names`` (see :func:`imported_names`), from the standard library alone: never a
    program's directory, which may be first on sys.path by now. CODECS too, where
    ``names`` says they may be used, and with ``code``, the program's, its patterns where
    it names re (see :func:`precompile_patterns`: it imports warnings)."""
    pystart.site_builtins()  # (exit, quit, help...: python3 has them, -S leaves them out)
    pystart.calibrate()  # (where the recursion depth is kept: a program starts at python3's)
    pystart.program_path()
    wanted = [name for name in PRELOAD if names is None or name in names]
    wanted += BUILD_PRELOAD if names is None else ()
    saved = sys.path
    if names is not None:
        sys.path = list(pystart.stdlib_path())
    try:
        for name in wanted:
            try:
                __import__(name)
            except ImportError:  # (then the program's own import says why)
                pass
        if names is not None and names & CODEC_USERS:  # (not the server: ~0.5 ms of its start)
            for codec in CODECS:
                codecs.lookup(codec)
        if code is not None and names is not None and "re" in names:
            precompile_patterns(code)
    finally:
        sys.path = saved


# A program that names ``re`` compiles its patterns in every run (~0.3-0.5 ms and a
# hundred copy-on-write faults each): the init compiles the short text constants of its
# code that look like patterns, once, into re's own cache (as ``re.compile(text)``), where
# a run's ``re.match(text, ...)`` or ``re.compile(text)`` finds them. One that warns is left
# for the run to compile, and warn, itself. Bounded, as they come from an untrusted
# program and no run is charged for the init's CPU: ASCII text without ``\u``, ``\U`` or
# ``\N`` escapes (a case-insensitive class of Unicode ranges compiles for ~8 ms; an ASCII
# pattern of 256 characters in ~3 ms at worst), and no new one past PATTERN_SECONDS.
PATTERN_CHARS = frozenset("\\[](){}.*+?^$|")
WIDE_ESCAPES = ("\\u", "\\U", "\\N")
MAX_PATTERNS = 16
MAX_PATTERN_CHARS = 256
PATTERN_SECONDS = 0.005  # of the init's CPU, for all of a program's patterns


def precompile_patterns(code: types.CodeType) -> list[str | bytes]:
    """Compile :func:`pattern_constants` of ``code`` into re's cache when re is loaded;
    the ones kept there. (In an init, called by :func:`preload` only, whose sys.path is
    the standard library's: ``import warnings`` must never find a program's file.)"""
    re = sys.modules.get("re")
    if re is None:
        return []
    import warnings

    kept: list[str | bytes] = []
    warned = False
    start = time.thread_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for index, text in enumerate(pattern_constants(code)):
            if index and time.thread_time() - start > PATTERN_SECONDS:
                break
            caught.clear()
            try:
                re.compile(text)
            except Exception:  # (not a pattern: the program's own use says so, if any)
                continue
            warned = warned or bool(caught)
            if not caught:
                kept.append(text)
    if warned:  # (a warning is the run's to print: compile only the others)
        re.purge()
        for text in kept:
            re.compile(text)
    return kept


def pattern_constants(code: types.CodeType) -> list[str | bytes]:
    """The text and bytes constants of ``code`` and its functions and classes that may be
    regular expressions (short ASCII, with a character special to one, see above), at
    most MAX_PATTERNS."""
    found: list[str | bytes] = []
    stack = [code]
    while stack and len(found) < MAX_PATTERNS:
        for const in stack.pop().co_consts:
            if isinstance(const, types.CodeType):
                stack.append(const)
            elif isinstance(const, (str, bytes)) and 0 < len(const) <= MAX_PATTERN_CHARS:
                text = const if isinstance(const, str) else const.decode("latin-1")
                if _may_be_pattern(text) and len(found) < MAX_PATTERNS:
                    found.append(const)
    return found


def _may_be_pattern(text: str) -> bool:
    return (
        text.isascii()
        and not PATTERN_CHARS.isdisjoint(text)
        and not any(escape in text for escape in WIDE_ESCAPES)
    )


def imported_names(code: types.CodeType) -> set[str]:
    """The top-level names of the modules ``code`` may import, found without running it: a
    superset (every global and attribute name of it and of its functions and classes),
    and a module imported by ``__import__`` or importlib is missed (it imports itself)."""
    names: set[str] = set()
    stack = [code]
    while stack:
        unit = stack.pop()
        names.update(name.partition(".")[0] for name in unit.co_names)
        stack.extend(const for const in unit.co_consts if isinstance(const, types.CodeType))
    return names


def reseed() -> None:
    """What the random module's at-fork hook does in a new process (a fork made in C runs
    no hooks: see leanloop.c): a fresh seed from the system, as a new python3 has. Through
    the C method: a third of the page faults of ``random.seed()``."""
    module = sys.modules.get("random")
    if module is None:
        return
    import _random

    inst = module._inst
    _random.Random.seed(inst)
    inst.gauss_next = None


def open_streams() -> Streams:
    """Standard streams as ``python3`` creates them in the sandbox (LANG=C.UTF-8 on POSIX):
    UTF-8 with surrogateescape, no newline translation, buffer sizes from the descriptors,
    a line-buffered stderr. (The process owns them until it exits.)"""
    stdin = open(0, encoding="utf-8", errors="surrogateescape", newline="\n", closefd=False)  # noqa: SIM115
    stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", newline="\n", closefd=False)  # noqa: SIM115
    stderr = open(  # noqa: SIM115
        2,
        "w",
        encoding="utf-8",
        errors="backslashreplace",
        newline="\n",
        closefd=False,
        buffering=1,
    )
    return stdin, stdout, stderr


class Main(NamedTuple):
    """A Python main file made ready for many runs by the parent that forks them: its code
    (None: compile it in the run), argv, sys.path and empty ``__main__`` module (each run
    changes its own copy; in a list of one, which a run empties before its shutdown
    collects: see pylife.live). Made in each run instead, these cost it dozens of page
    faults (~3 us each)."""

    code: types.CodeType | None
    argv: list[str]
    path: list[str]
    module: list[types.ModuleType]
    command: str | None = None  # the program of ``python3 -S -c COMMAND`` (see COMMAND)
    shadowed: tuple[str, ...] = ()  # loaded modules each run drops (see shadowed_modules)
    teardown: bool = True  # whether its runs end with the collections (pylife.shutdown)


# The "main file" of a run of ``python3 -S -c CODE args``: the code is the argument after it.
COMMAND = "-c"


def script_args(argv: list[str], path: str) -> list[str]:
    """The arguments after the main file ``path`` in a ``python3`` command line (none when
    it is not there)."""
    return argv[argv.index(path) + 1 :] if path in argv else []


def prepare(
    path: str,
    args: list[str],
    code: types.CodeType | None = None,
    shadowed: tuple[str, ...] | None = None,
    teardown: bool | None = None,
) -> Main:
    """``shadowed`` and ``teardown``: :func:`shadowed_modules` of the main file's
    directory and :func:`needs_teardown` when known (a lean init finds them once per
    program, not once per argv)."""
    module = types.ModuleType("__main__")
    local: set[str] | None = None  # (the directory listed once, for whichever needs it)
    if path == COMMAND:  # python3 -S -c CODE args: argv[0] is "-c", the path starts at ""
        importer = sys.modules["_frozen_importlib"].BuiltinImporter
        module.__dict__.update(__loader__=importer, __annotations__={}, __builtins__=builtins)
        command = args[0] if args else ""
        search = ["", *pystart.program_path()]
        return Main(None, [COMMAND, *args[1:]], search, [module], command, shadowed_modules(""))
    pystart.main_namespace(module.__dict__, path)
    directory = os.path.dirname(path)
    if shadowed is None or teardown is None:
        local = local_names(directory)
    if shadowed is None:
        shadowed = shadowed_modules(directory, local)
    search = [pystart.script_directory(path), *pystart.program_path()]
    if teardown is None:
        teardown = needs_teardown(path, code, local)
    return Main(code, [path, *args], search, [module], None, shadowed, teardown)


def needs_teardown(path: str, code: types.CodeType | None, local: set[str] | None = None) -> bool:
    """Whether the runs of the main file ``path`` (of ``code``, None: not compiled yet)
    end with the collections of python3's shutdown: see pystart.needs_teardown, which
    knows a program alone in its directory (modules beside it may make anything).
    ``local``: the directory's :func:`local_names`, when the caller has them."""
    if local is None:
        local = local_names(os.path.dirname(path))
    alone = local <= {os.path.basename(path).partition(".")[0]}
    return code is None or not alone or pystart.needs_teardown(code)


def install(main: Main, streams: Streams | None) -> None:
    """Make ``main`` this interpreter's ``__main__`` (argv, path, module, and ``streams``
    when given as sys.stdin, stdout and stderr): a lean init does it once per program, so
    its runs find it done."""
    if streams is not None:
        sys.stdin, sys.stdout, sys.stderr = streams
        for name, stream in zip(("__stdin__", "__stdout__", "__stderr__"), streams, strict=True):
            setattr(sys, name, stream)  # (as in python3: the streams it started with)
    sys.argv, sys.path = main.argv, main.path
    if main.command is None:  # (as the command line of python3 would be)
        sys.orig_argv = ["python3", *main.argv]
    else:
        sys.orig_argv = ["python3", "-S", "-c", main.command, *main.argv[1:]]
    sys.modules["__main__"] = main.module[0]


def local_names(directory: str) -> set[str]:
    """The module names a program's directory (first on its path) holds files or packages
    of: what ``import NAME`` finds there before the standard library."""
    try:
        return {entry.partition(".")[0] for entry in os.listdir(directory or ".")}
    except OSError:
        return set()


def shadowed_modules(directory: str, local: set[str] | None = None) -> tuple[str, ...]:
    """The loaded modules a run drops so that its imports find what they would in a new
    ``python3 -S``: when ``directory`` (the program's, first on its path) holds a file or
    package named after a module this interpreter has loaded that a new one finds on the
    path (not built in, not frozen, not its ``encodings``), every such loaded module, so
    that ``import socket`` loads the program's ``socket.py`` and anything that imports it
    does too. Else none (the usual case: preloaded modules stay, the point of running in
    process). Dropped in the program's own process, never in a jail's init: that runs as
    root, and must import nothing from the program's directory. ``local``: its
    :func:`local_names`, when the caller has them."""
    if local is None:  # (a loaded submodule's package is loaded too)
        local = local_names(directory)
    if not any(name in sys.modules and not _found_first(name) for name in local):
        return ()
    return tuple(name for name in sys.modules if not _found_first(name))


def _found_first(name: str) -> bool:
    """Whether a new ``python3 -S`` has module ``name`` whatever its program's directory
    holds: built in, frozen (found before the path), or imported as it starts."""
    root = name.partition(".")[0]
    return (
        root in sys.builtin_module_names
        or root in ("__main__", "encodings")
        or _imp.is_frozen(root)
    )


def run_main(
    path: str,
    args: list[str],
    prepared: Main | None = None,
    streams: Streams | None = None,
    installed: bool = False,
) -> int:
    """Run ``path`` as ``__main__``, as ``python3 -S path args`` would (``python3 -S -c``
    for COMMAND, the code being the first of ``args``); return its exit
    status. ``prepared``: made by the parent (see :class:`Main`); ``streams``: made by the
    parent on descriptors of the kinds 0, 1 and 2 are now; ``installed``: the parent
    installed both already (see :func:`install`)."""
    main = prepared or prepare(path, args)
    if not (installed and prepared is not None):
        install(main, streams or open_streams())
    return run_installed(main, path)


def run_installed(main: Main, path: str) -> int:
    """Run the installed main file (see :func:`install`) to its end, the interpreter's
    shutdown included (see :mod:`pylife`); its exit status. The parent froze what it had
    before it made ``main`` (see before_fork): a run's collections look at its own
    objects only."""
    for name in main.shadowed:
        sys.modules.pop(name, None)
    return pylife.live(main.module, main.code, path, main.command, main.teardown)


def before_fork() -> None:
    """In a process about to fork in-process runs, before it makes their ``__main__``:
    what it has is no run's garbage, and a collection in a run (the one at its end, or
    any, once the run has made enough objects) would otherwise look at all of it, copying
    the pages it writes its marks on (~0.1 ms and up a run); a program's interrupt is
    python3's KeyboardInterrupt (a process forked from the sandbox server ignores it)."""
    pystart.freeze()
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
