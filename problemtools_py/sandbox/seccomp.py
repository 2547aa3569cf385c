"""The seccomp filter every sandboxed program runs under (submissions, validators,
generators, graders, compilers, model-written code).

Denied calls fail with ``EPERM`` rather than killing the program: a denied call is then
an ordinary error the program may report (a crash, a wrong answer), never a signal that
reads as a runtime error of the judge's making, and a runtime that probes for a feature
(glibc trying clone3, Python trying io_uring-less paths) carries on. ``clone3`` fails with
``ENOSYS`` instead, so glibc falls back to ``clone``, whose flags the filter can read.

What is denied, and why a contest program never needs it:
- shared kernel state that outlives a run or crosses jails: the key rings (``add_key``,
  ``request_key``, ``keyctl``: a user's keyring outlives the run, and a sandbox's
  user is leased again by later sandboxes), System V IPC and POSIX message queues;
- new namespaces (``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*`` flag): an
  unprivileged user namespace would hand the program capabilities over its own mounts;
- machine-wide counters one jail could fill or read: kernel AIO (``io_setup``,
  ``io_submit``, ``io_getevents``, ``io_pgetevents``, ``io_cancel``, ``io_destroy``):
  ``/proc/sys/fs/aio-nr`` counts every context on the machine, so one jail could take all
  of ``aio-max-nr`` or signal another through the count (glibc's ``aio_*`` uses threads,
  not these calls);
- kernel attack surface: ``bpf``, ``perf_event_open``, ``userfaultfd``, ``io_uring_*``,
  ``ptrace``, ``process_vm_readv/writev``, ``kcmp``, ``pidfd_getfd``, ``open_by_handle_at``;
- what only an administrator does: the new mount API (``fsopen``, ``open_tree``...),
  ``chroot``, ``pivot_root``, modules, ``kexec_*``, ``reboot``, ``swapon/off``, clocks,
  host and domain names, ``acct``, quotas, ``syslog``, ``iopl``/``ioperm``,
  ``modify_ldt``, ``vhangup``.

``mount`` and ``umount2`` pass the filter: a jail's init installs it on itself once (so
every program inherits it, at no cost per run) and mounts each run's fresh scratch space
after that. Programs still cannot mount: they run as the sandbox's user without
``CAP_SYS_ADMIN``, and the one way to gain it, a user namespace of their own, is denied
above (the kernel answers ``EPERM``, as the filter would).

Two allow-lists bound what the deny-list cannot foresee:
- every call numbered ``FIRST_UNKNOWN`` or above fails with ``ENOSYS``, as on a kernel
  that predates it (runtimes fall back): ``statmount``, ``listmount`` (457, 458) and what
  comes after ``futex_requeue`` (456, Linux 6.7), whatever a newer kernel adds;
- ``socket`` and ``socketpair`` make only ``AF_UNIX``, ``AF_INET``, ``AF_INET6`` (in the
  jail's own empty network) and ``AF_NETLINK`` (the C library asks it for interfaces);
  other families fail with ``EAFNOSUPPORT``: ``AF_VSOCK`` ignores network namespaces (on
  a virtual machine the host is a peer), and packet, Bluetooth, CAN, ALG and the rest are
  kernel surface no contest program needs.

x86_64 and aarch64 are known (their numbers, from the kernel's headers, are checked by a
test against the headers of the machine when they are installed); a call made through
another ABI (x32, or a 32-bit call on x86_64) is denied outright."""

from __future__ import annotations

import errno
import os
import struct

# name -> (x86_64, aarch64); None where the architecture has no such call
DENIED: dict[str, tuple[int | None, int | None]] = {
    "add_key": (248, 217),
    "request_key": (249, 218),
    "keyctl": (250, 219),
    "shmget": (29, 194),
    "shmat": (30, 196),
    "shmctl": (31, 195),
    "shmdt": (67, 197),
    "semget": (64, 190),
    "semop": (65, 193),
    "semtimedop": (220, 192),
    "semctl": (66, 191),
    "msgget": (68, 186),
    "msgsnd": (69, 189),
    "msgrcv": (70, 188),
    "msgctl": (71, 187),
    "mq_open": (240, 180),
    "mq_unlink": (241, 181),
    "mq_timedsend": (242, 182),
    "mq_timedreceive": (243, 183),
    "mq_notify": (244, 184),
    "mq_getsetattr": (245, 185),
    "unshare": (272, 97),
    "setns": (308, 268),
    "bpf": (321, 280),
    "perf_event_open": (298, 241),
    "userfaultfd": (323, 282),
    "io_uring_setup": (425, 425),
    "io_uring_enter": (426, 426),
    "io_uring_register": (427, 427),
    "io_setup": (206, 0),
    "io_destroy": (207, 1),
    "io_getevents": (208, 4),
    "io_submit": (209, 2),
    "io_cancel": (210, 3),
    "io_pgetevents": (333, 292),
    "ptrace": (101, 117),
    "process_vm_readv": (310, 270),
    "process_vm_writev": (311, 271),
    "kcmp": (312, 272),
    "pidfd_getfd": (438, 438),
    "name_to_handle_at": (303, 264),
    "open_by_handle_at": (304, 265),
    "fanotify_init": (300, 262),
    "lookup_dcookie": (212, 18),
    "pivot_root": (155, 41),
    "chroot": (161, 51),
    "open_tree": (428, 428),
    "move_mount": (429, 429),
    "fsopen": (430, 430),
    "fsconfig": (431, 431),
    "fsmount": (432, 432),
    "fspick": (433, 433),
    "mount_setattr": (442, 442),
    "init_module": (175, 105),
    "finit_module": (313, 273),
    "delete_module": (176, 106),
    "create_module": (174, None),
    "query_module": (178, None),
    "get_kernel_syms": (177, None),
    "kexec_load": (246, 104),
    "kexec_file_load": (320, 294),
    "reboot": (169, 142),
    "swapon": (167, 224),
    "swapoff": (168, 225),
    "settimeofday": (164, 170),
    "clock_settime": (227, 112),
    "adjtimex": (159, 171),
    "clock_adjtime": (305, 266),
    "sethostname": (170, 161),
    "setdomainname": (171, 162),
    "acct": (163, 89),
    "quotactl": (179, 60),
    "quotactl_fd": (443, 443),
    "nfsservctl": (180, 42),
    "syslog": (103, 116),
    "iopl": (172, None),
    "ioperm": (173, None),
    "modify_ldt": (154, None),
    "vhangup": (153, 58),
    "uselib": (134, None),
    "ustat": (136, None),
    "sysfs": (139, None),
    "_sysctl": (156, None),
}
CLONE = (56, 220)
SOCKET_CALLS = ((41, 198), (53, 199))  # socket, socketpair
SOCKET_FAMILIES = (1, 2, 10, 16)  # AF_UNIX, AF_INET, AF_INET6, AF_NETLINK
FIRST_UNKNOWN = 457  # statmount: the calls from here on share numbers on both
CLONE3 = (435, 435)
ARCHES = {"x86_64": (0, 0xC000003E), "aarch64": (1, 0xC00000B7)}  # column, AUDIT_ARCH_*
X32_BIT = 0x40000000
NAMESPACE_FLAGS = (
    0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
)

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low word)


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def build_filter(machine: str | None = None) -> bytes | None:
    """The filter for this machine's architecture (None when it is not one we know)."""
    arch = ARCHES.get(machine or os.uname().machine)  # (platform's answer, without platform)
    if arch is None:
        return None
    column, audit_arch = arch
    denied = sorted({n for nrs in DENIED.values() if (n := nrs[column]) is not None})
    eperm, enosys = _ERRNO | errno.EPERM, _ERRNO | errno.ENOSYS
    code = [_insn(_LD_W_ABS, _ARCH), _insn(_JEQ, audit_arch, 1, 0), _insn(_RET, eperm)]
    code.append(_insn(_LD_W_ABS, _NR))
    if column == 0:  # x32 calls on x86_64 carry this bit
        code += [_insn(_JGE, X32_BIT, 0, 1), _insn(_RET, eperm)]
    code += [_insn(_JGE, FIRST_UNKNOWN, 0, 1), _insn(_RET, enosys)]
    code += [_insn(_JEQ, CLONE3[column], 0, 1), _insn(_RET, enosys)]
    code += _socket_families(column)
    # clone: look at its flags; everything else in the list: EPERM
    code += [
        _insn(_JEQ, CLONE[column], 0, 3),
        _insn(_LD_W_ABS, _ARG0),
        _insn(_JSET, NAMESPACE_FLAGS, 0, 1 + len(denied)),
        _insn(_RET, eperm),
    ]
    for index, number in enumerate(denied):
        # a match jumps to the EPERM return after the list; no match tries the next
        code.append(_insn(_JEQ, number, len(denied) - index, 0))
    code += [_insn(_RET, _ALLOW), _insn(_RET, eperm)]
    return b"".join(code)


def _socket_families(column: int) -> list[bytes]:
    """socket and socketpair: the families of ``SOCKET_FAMILIES`` pass, others fail with
    EAFNOSUPPORT; any other call goes on with its number still loaded."""
    families = len(SOCKET_FAMILIES)
    socket, pair = (numbers[column] for numbers in SOCKET_CALLS)
    # neither call: past the load, the family tests and the two returns
    code = [_insn(_JEQ, socket, 1, 0), _insn(_JEQ, pair, 0, families + 3)]
    code.append(_insn(_LD_W_ABS, _ARG0))
    for index, family in enumerate(SOCKET_FAMILIES):
        code.append(_insn(_JEQ, family, families - index, 0))  # -> the allow below
    code += [_insn(_RET, _ERRNO | errno.EAFNOSUPPORT), _insn(_RET, _ALLOW)]
    return code
