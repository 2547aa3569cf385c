"""One user per sandbox: the uid (and gid) a server's programs run as, leased for the
server's life so that no two sandboxes on the machine, in one judge or in two, ever
share one (issue 40: every sandbox ran as ``nobody``, and the kernel keeps counters per
user that any program could read or exhaust for all the others: the pending signals
shown in ``/proc/self/status`` as ``SigQ``, inotify instances, ``RLIMIT_NPROC``).

The ids come from a range no account uses (``FIRST_UID`` on, ``SLOTS`` of them: above
the container ranges of systemd's ``UIDS-GIDS.md``, below its foreign range). A slot is
taken with an exclusive ``flock`` of ``LEASE_DIR/<slot>``, held by an open descriptor;
the jails' inits inherit it, so the lease ends only when the server and every init it
made have gone (as isolate's box ids, with the kernel as the lock keeper). Without root
there is no user to switch to: programs run as the judge's own.

A server that spawns others runs nothing and holds no lease; each server it forks takes
its own. Standard library only, as all of ``sandbox/``."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat

FIRST_UID = 1_900_000_000
SLOTS = 65_536
LEASE_DIR = "/run/problemtools_py/uids"

_held: list[tuple[int, int, int]] = []  # (pid that took it, descriptor, slot)
_adopted: list[tuple[int, int]] = []  # a lean init's: its server's ids (see adopt)


def _lease_dir() -> str:
    """The lock directory, made root-only; a directory anyone else could change (or a
    symbolic link) is refused, since whoever owns it could hand out leases."""
    os.makedirs(LEASE_DIR, mode=0o700, exist_ok=True)
    for path in (os.path.dirname(LEASE_DIR), LEASE_DIR):
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o022:
            raise OSError(f"{path} is not a directory only root may change")
    return LEASE_DIR


def acquire() -> tuple[int, int]:
    """This process's (uid, gid), taking a free slot if it holds none yet (a lease
    inherited from the process that forked this one is let go first). Raises OSError
    when no slot is free or the lock directory cannot be used."""
    if os.geteuid() != 0:
        return os.geteuid(), os.getegid()
    if _held and _held[0][0] == os.getpid():
        return ids()
    release()
    directory = _lease_dir()
    for slot in range(SLOTS):
        fd = os.open(f"{directory}/{slot}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        _held.append((os.getpid(), fd, slot))
        return ids()
    raise OSError(f"all {SLOTS} sandbox users are in use")


def release() -> None:
    """Let this process's hold on its lease go (the slot is free once every process
    that inherited the descriptor has gone too)."""
    while _held:
        with contextlib.suppress(OSError):
            os.close(_held.pop()[1])


def ids() -> tuple[int, int]:
    """The (uid, gid) programs run as here: the leased slot's (a jail's init and its
    programs, forked from the server, see the server's lease; a lean init, a fresh
    interpreter, the ids it adopted), or the judge's own without root. As root with
    neither, OSError: a program never runs as root for want of a user."""
    if _held:
        uid = FIRST_UID + _held[0][2]
        return uid, uid
    if _adopted:
        return _adopted[0]
    if os.geteuid() != 0:
        return os.geteuid(), os.getegid()
    raise OSError("no sandbox user is leased to this server")


def adopt(uid: int, gid: int) -> None:
    """Take the server's ids (a lean init, executed afresh, holds no lease itself: its
    server's descriptor stays open in the server). Never root's."""
    if uid == 0 or gid == 0:
        raise OSError("a sandbox's programs never run as root")
    _adopted[:] = [(uid, gid)]


def known() -> tuple[int, int]:
    """The ids to tell the judge: as :func:`ids`, or (-1, -1) where there are none (a
    root server without isolation, on request, or refused)."""
    try:
        return ids()
    except OSError:
        return -1, -1


def lease_fd() -> int | None:
    """The descriptor that holds the lease (kept open by whoever must keep it)."""
    return _held[0][1] if _held else None


def in_use(uid: int) -> bool:
    """Whether ``uid`` is a sandbox user whose lease some live process holds (a process
    of a sandbox user whose lease is free has outlived its sandbox)."""
    slot = uid - FIRST_UID
    if not 0 <= slot < SLOTS:
        return False
    try:
        fd = os.open(f"{LEASE_DIR}/{slot}", os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # (a lock taken here goes with the descriptor)
    return False


def processes() -> dict[int, int]:
    """Every process running as a sandbox user: PID -> uid (the real uid of its status:
    the owner of ``/proc/PID`` is root for a program that changed user without exec)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{entry}/status", "rb") as status:
                    line = next(li for li in status if li.startswith(b"Uid:"))
                uid = int(line.split()[1])
                if FIRST_UID <= uid < FIRST_UID + SLOTS:
                    found[int(entry)] = uid
    return found


def strays() -> list[int]:
    """PIDs of processes running as a sandbox user whose lease is free: each outlived
    its sandbox. Never one of a sandbox still running (another judge's, another test
    suite's), so a check of it holds on a machine that is not otherwise idle."""
    return [pid for pid, uid in processes().items() if not in_use(uid)]
