"""The sandbox: a program that runs programs, separate from the judge in all but name.

``client.Sandbox`` starts ``server.py`` under ``python3 -I -S`` (as root for full
isolation). Everything here uses the standard library only; a test imports the package
under ``python3 -S -I`` to keep it so. Nothing here knows problems, verdicts or languages.

- A run is argv, files and limits (``results.Limits``); it comes back as a
  ``results.RunResult``. The wire format is typed once, in ``protocol.py``.
- ``Sandbox.run``, ``Sandbox.session`` and ``Sandbox.run_lean`` are the client's API.
  ``run_lean`` talks straight to a jail's lean init (``zygote.py``).
- ``leanloop.c`` is the lean init's run loop, built on first use (``native.py``) and
  driven through ctypes (``leannative.py``). Where it cannot be built, ``zygote.serve``
  does the same in Python. The tests run both.
- A Python program forked in a jail lives as under ``python3 prog.py``: ``pystart.py``
  prepares what python3 has before the first line, ``pylife.py`` runs and ends it;
  ``mainfile.py`` makes its main file ready once per program (and the init rehearses
  that on a text of ours, so each completion's fresh server finds it warm).
- Hostile programs are kept apart by ``probe.py`` (what isolation this machine gives),
  ``identity.py`` (a uid per server), ``cores.py`` (a core per completion) and
  ``renewal.py`` (each completion from a fresh fork of the jail's init).
- What a jail wrote is read only through ``jailfiles.py`` (above the sandbox, in the
  package's top): no link followed, sizes bounded. See docs/security.md."""
