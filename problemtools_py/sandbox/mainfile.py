"""A lean session's Python main file, made ready once per program (compiled, its modules
imported, its ``__main__`` made) by the server of runs that forks its runs; and the
init's rehearsal of that work on a text of ours (issue 61).

A server of runs is a new fork of the init for each completion (see renewal): every page
of the init it writes is a page the kernel copies for it, and the work of making a main
file ready writes many that the init never wrote: the code of the functions that do it
(Python 3.11 specialises a function's bytecode, in place, as it first runs), the
interpreter's caches (type attributes, interned names) and the allocator's free lists.
So the init makes a main file of its own ready once, as a server makes a completion's,
and puts back what that changed: each server then finds that work's pages already
specialised and warm. On the development machine, 840 completions each of its own
program: ~95 fewer page faults a completion (1.50 M to 1.42 M in all), 4 % of the wall
time. The text is ours (renewal.WARM_UP), never a program's: the init never holds a
program."""

from __future__ import annotations

import gc
import os
import sys

from problemtools_py.sandbox import inprocess, pystart

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    import types

# main file: its bytes, its code, what each run drops (inprocess.shadowed_modules) and
# whether its runs end with the collections (inprocess.needs_teardown)
_COMPILED: dict[str, tuple[bytes, types.CodeType, tuple[str, ...], bool]] = {}
_PREPARED: dict[tuple[str, tuple[str, ...]], inprocess.Main] = {}  # made of _COMPILED's code


def prepared(path: str, argv: list[str]) -> inprocess.Main | None:
    """The main file made ready once for all of a completion's tests (compiled, with its
    ``__main__`` module): reused while the file holds the same bytes (compared in full:
    timestamps are too coarse to tell two quick completions of one size apart). Its code
    outlives a change of arguments (a validator's name each test's files): only the small
    :class:`inprocess.Main` is made again. None when the program should load it itself:
    unreadable to the sandbox user, or not valid Python (its own run reports that)."""
    args = tuple(inprocess.script_args(argv, path))
    try:
        if not os.stat(path).st_mode & 0o004:
            return None
        with open(path, "rb") as handle:
            source = handle.read()
        compiled = _COMPILED.get(path)
        if compiled is None or compiled[0] != source:
            _COMPILED.clear()  # one program at a time
            _PREPARED.clear()
            code = pystart.compile_quietly(source, path)
            directory = os.path.dirname(path)
            local = inprocess.local_names(directory)  # (listed once, for all three)
            # (the modules it may use, once; not those its directory has: a random.py
            # beside it is what its import random loads, as in a new python3)
            inprocess.preload(inprocess.imported_names(code) - local, code)
            shadowed = inprocess.shadowed_modules(directory, local)  # (after preload)
            teardown = inprocess.needs_teardown(path, code, local)
            compiled = _COMPILED[path] = (source, code, shadowed, teardown)
        main = _PREPARED.get((path, args))
        if main is None:
            _PREPARED.clear()  # (one argv at a time: a validator's differ every test)
            inprocess.before_fork()
            main = inprocess.prepare(path, list(args), *compiled[1:])
            _PREPARED[(path, args)] = main
        return main
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


def rehearse(text: str, streams: inprocess.Streams | None, times: int = 8) -> bool:
    """Make ``text`` (ours) ready ``times`` times as a main file, as a server of runs
    makes a completion's (prepared, then installed with the programs' ``streams``), and
    put back all that changed: the caches here, ``sys.argv``, ``path``, ``orig_argv``,
    ``__main__`` and the standard streams. Whether it was done (not where a memory file
    or /proc is missing: the servers then simply do it all themselves)."""
    try:
        fd = os.memfd_create("rehearsal")
    except OSError:
        return False
    sys_names = ("argv", "path", "orig_argv", "stdin", "stdout", "stderr", "__stdin__",
                 "__stdout__", "__stderr__")  # fmt: skip
    saved = {name: getattr(sys, name) for name in sys_names}
    saved_main = sys.modules.get("__main__")
    try:
        os.write(fd, text.encode())
        os.fchmod(fd, 0o444)
        path = f"/proc/self/fd/{fd}"
        done = False
        for _ in range(times):
            _COMPILED.clear()  # (compiled anew each time, as each server compiles its own)
            main = prepared(path, ["python3", path])
            if main is None:
                break
            inprocess.install(main, streams)
            done = True
        return done
    finally:
        _COMPILED.clear()
        _PREPARED.clear()
        gc.collect()  # (what it made and dropped: young objects only, the rest is frozen)
        for name, value in saved.items():
            setattr(sys, name, value)
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
        else:
            sys.modules.pop("__main__", None)
        os.close(fd)
