"""A Python program's whole life as ``python3 prog.py`` gives it, for a program run in a
fork of a warm interpreter (:mod:`inprocess` calls :func:`live`; what comes before its
first line is :mod:`pystart`'s). A program started afresh is ``python3 prog.py`` itself,
in a jail whose site-packages directories are empty (see pystart.site_dirs).

What ``python3 prog.py`` does around the program's code, in order (CPython 3.11's
``Py_RunMain``), and what is done for it here and in pystart:

- the builtins the ``site`` module adds: ``exit``, ``quit``, ``help``, ``copyright``,
  ``credits``, ``license``, made by site's own functions (once per interpreter), without
  the rest of site's work;
- ``sys.argv`` ``[prog.py, args...]``, ``sys.path`` the script's real directory, the
  standard library and the (empty) site-packages directories, ``__main__`` with
  ``__file__``, ``__cached__``, ``__annotations__`` and a source loader; the main
  module's frame at the recursion depth python3 gives it, so that a program recursing up
  to its limit gets as far; SIGINT raising ``KeyboardInterrupt``;
- the code run (:func:`live`); then stdout and stderr flushed (errors ignored); an
  uncaught ``SystemExit`` gives the exit status (a text argument printed to stderr,
  status 1), any other uncaught exception goes to ``sys.excepthook`` (status 1) and
  ``__file__`` is forgotten;
- the interpreter's shutdown (:func:`shutdown`): ``threading._shutdown`` waits for every
  non-daemon thread, ``atexit`` handlers run, the standard streams are flushed (a
  failure: status 120), the garbage is collected, the streams put back, ``__main__``
  destroyed (its garbage collected: ``__del__`` methods run, a file never closed is
  flushed), the streams flushed again; an uncaught ``KeyboardInterrupt`` ends the
  process by SIGINT.

Standard library only (a lean init imports it)."""

from __future__ import annotations

import _weakref
import atexit
import gc
import os
import signal
import sys

from problemtools_py.sandbox import pystart

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    import types
    from typing import Any

    Namespace = dict[str, Any]

STATUS_FLUSH_FAILED = 120  # CPython's exit status when the streams cannot be flushed


def live(
    module: list[types.ModuleType],
    code: types.CodeType | None,
    path: str,
    command: str | None = None,
    teardown: bool = True,
) -> int:
    """The life of a program of ``code`` (None: compile ``path``, or the ``python3 -c``
    text ``command``) as python3 gives it, in this interpreter (a fork made for it) whose
    ``__main__`` is ``module[0]``: its exit status (see the module's text). ``module`` is
    emptied before a shutdown that collects (``teardown``, see pystart.needs_teardown),
    so that ``sys.modules`` alone holds it then. The common end (no thread, no atexit
    handler, nothing to collect) takes no step it does not need: in a forked run each
    object written to copies a page (~3 us)."""
    namespace = module[0].__dict__
    try:
        if code is None:
            code = _compile(path, command)
        if pystart.COUNTER:  # (this frame as deep as makes the module's MODULE_DEPTH)
            pystart.COUNTER[0][0] = pystart.COUNTER[1]
        exec(code, namespace)
    except BaseException as exc:
        status, interrupted = _uncaught(exc, code, namespace, command)
    else:
        if not (teardown or "threading" in sys.modules or atexit._ncallbacks()):
            try:  # (the streams as the program left them, most often: at once)
                sys.stdout.flush()
                sys.stderr.flush()
                return 0
            except BaseException:  # (closed, replaced, broken: as python3 tells it)
                return 0 if _flush_std_files() else STATUS_FLUSH_FAILED
        flush_io()
        _forget_file(namespace, command)
        status, interrupted = 0, False
    del namespace
    if teardown or interrupted:
        module.clear()
    return shutdown(status, interrupted, teardown)


def _compile(path: str, command: str | None) -> types.CodeType:
    if command is not None:
        return compile(command, "<string>", "exec", dont_inherit=True)
    with open(path, "rb") as handle:
        return compile(handle.read(), path, "exec", dont_inherit=True)


def _uncaught(
    exc: BaseException, code: types.CodeType | None, namespace: Namespace, command: str | None
) -> tuple[int, bool]:
    """The exit status an uncaught exception gives (told as python3 tells it), and
    whether it was a ``KeyboardInterrupt``. (Python3 ends at once after a ``SystemExit``:
    ``__file__`` stays.)"""
    flush_io()
    if isinstance(exc, SystemExit):
        return exit_status(exc), False
    status = report(exc, code)
    _forget_file(namespace, command)
    return (1 if status is None else status), isinstance(exc, KeyboardInterrupt)


def _forget_file(namespace: Namespace, command: str | None) -> None:
    if command is None:  # (python3 deletes them after running a file, not a -c text)
        namespace.pop("__file__", None)
        namespace.pop("__cached__", None)


def flush_io() -> None:
    """stderr, then stdout, flushed once the main module ended; errors ignored."""
    for name in ("stderr", "stdout"):
        try:
            getattr(sys, name).flush()
        except BaseException:  # (python3 ignores them here too)
            pass


def exit_status(exc: SystemExit) -> int:
    """The exit status of an uncaught ``SystemExit`` (None: 0; a number: itself, modulo
    256 as the kernel keeps it; anything else is printed to stderr: 1)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -(1 << 63) <= code < 1 << 63 else 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except BaseException:
        os.write(2, (str(code) + "\n").encode(errors="backslashreplace"))
    return 1


def report(exc: BaseException, code: types.CodeType | None) -> int | None:
    """Hand an uncaught exception to ``sys.excepthook`` as python3 does (its traceback
    from the program's first frame on, ``sys.last_*`` set); the exit status when the hook
    itself raised ``SystemExit``, else None."""
    exc.__traceback__ = _program_traceback(exc.__traceback__, code)
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, exc.__traceback__
    if sys.version_info >= (3, 12):
        sys.last_exc = exc
    hook = getattr(sys, "excepthook", None)
    if hook is None:
        sys.stderr.write("sys.excepthook is missing\n")
        sys.__excepthook__(type(exc), exc, exc.__traceback__)
        return None
    try:
        hook(type(exc), exc, exc.__traceback__)
    except SystemExit as stop:
        return exit_status(stop)
    except BaseException as failure:
        sys.stderr.write("Error in sys.excepthook:\n")
        sys.__excepthook__(type(failure), failure, failure.__traceback__)
        sys.stderr.write("\nOriginal exception was:\n")
        sys.__excepthook__(type(exc), exc, exc.__traceback__)
    return None


def _program_traceback(
    tb: types.TracebackType | None, code: types.CodeType | None
) -> types.TracebackType | None:
    """The traceback from the program's own module frame on (none: it did not start)."""
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    return tb


def shutdown(status: int, interrupted: bool, teardown: bool = True) -> int:
    """The interpreter's shutdown after the main module ended with ``status``: the exit
    status (or, ``interrupted``, the end by SIGINT). Without ``teardown`` (see
    pystart.needs_teardown), no collection and no clearing of ``__main__``."""
    if not (teardown or interrupted or "threading" in sys.modules or atexit._ncallbacks()):
        status = status if _flush_std_files() else STATUS_FLUSH_FAILED
        _flush_c_stdio()
        return status
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException as exc:
            _unraisable(exc, threading)
    if atexit._ncallbacks():
        if pystart.COUNTER:  # (handlers as deep as python3 calls them: from no frame)
            pystart.COUNTER[0][0] = pystart.COUNTER[1]
        atexit._run_exitfuncs()
    failed = not _flush_std_files()
    if teardown or interrupted:
        if gc.isenabled():
            _collect()
        _finalize_main()
        failed = not _flush_std_files() or failed
    if failed:
        status = STATUS_FLUSH_FAILED
    _flush_c_stdio()  # (python3 flushes them before it ends by SIGINT too)
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        return 130
    return status


def _flush_c_stdio() -> None:
    """C's stdio buffers flushed, as C's ``exit()`` flushes them after python3's own
    finalization (the process then ends by ``_exit``, which would lose them: issue 60,
    output of ``ctypes``' ``printf``). Only a program that loaded ctypes can have any."""
    ctypes = sys.modules.get("ctypes")
    if ctypes is not None:
        try:
            ctypes.CDLL(None).fflush(None)
        except Exception:  # (a ctypes the program replaced or broke: nothing to flush)
            pass


# What CPython sets to None in sys as it destroys the modules (sys.stdin, stdout and
# stderr are put back to the streams it started with).
SYS_DELETED = ("path", "argv", "ps1", "ps2", "last_exc", "last_type", "last_value",
               "last_traceback", "path_hooks", "path_importer_cache", "meta_path",
               "__interactivehook__")  # fmt: skip


def _finalize_main() -> None:
    """``__main__`` destroyed as CPython destroys the modules: out of ``sys.modules``, its
    garbage collected (finalizers first: ``__del__`` methods see the globals), and, were it
    still alive (a reference the program kept), its globals cleared: each set to None,
    those with one leading underscore first, ``__builtins__`` kept."""
    for name in ("stdin", "stdout", "stderr"):
        original = getattr(sys, f"__{name}__", None)
        if original is not None:
            setattr(sys, name, original)
    for name in SYS_DELETED:
        setattr(sys, name, None)
    main = sys.modules.pop("__main__", None)
    alive = _weakref.ref(main) if main is not None else None
    del main
    _collect()
    main = alive() if alive is not None else None
    if main is not None:
        _clear_module(main.__dict__)


def _collect() -> None:
    """A full collection of the run's garbage, as CPython's at exit; of the young
    generations only while nothing reached the oldest (the parent's objects are frozen,
    see pystart.freeze), which spares the free lists a full one empties (~30 pages copied)."""
    gc.collect(2 if pystart.older_collections() != pystart.OLDER_COLLECTED[0] else 1)


def _flush_std_files() -> bool:
    """sys.stdout then sys.stderr flushed unless closed; False when one failed (stdout's
    failure told as python3 tells it)."""
    ok = True
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        if stream is None or _closed(stream):
            continue
        try:
            stream.flush()
        except BaseException as exc:
            ok = False
            if name == "stdout":
                _unraisable(exc, stream)
    return ok


def _closed(stream: Any) -> bool:
    try:
        return bool(stream.closed)
    except BaseException:
        return False


def _clear_module(namespace: Namespace) -> None:
    for first in (True, False):
        for key, value in list(namespace.items()):
            if value is None or not isinstance(key, str):
                continue
            private = key[:1] == "_" and key[1:2] != "_"
            if private if first else key != "__builtins__":
                try:
                    namespace[key] = None
                except BaseException as exc:  # (a __del__ that raised is told by CPython)
                    _unraisable(exc, None)


def _unraisable(exc: BaseException, obj: object) -> None:
    """Tell ``exc`` as an exception CPython ignores (``Exception ignored in: obj``)."""
    try:
        sys.unraisablehook(_unraisable_args()((type(exc), exc, exc.__traceback__, None, obj)))
    except BaseException:  # (nothing more to tell it with)
        pass


def _unraisable_args() -> Any:
    """The type of the hook's argument (not in sys's namespace): caught from the hook."""
    caught: list[Any] = []
    saved = sys.unraisablehook

    class Raiser:
        def __del__(self) -> None:
            raise ValueError

    sys.unraisablehook = caught.append
    try:
        Raiser()
    finally:
        sys.unraisablehook = saved
    return type(caught[0])
