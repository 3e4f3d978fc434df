"""In-child hardening, applied by the bot runtime BEFORE the bot's code is imported.

Layers, in order: rlimits, ``no_new_privs`` + non-dumpable, Landlock (filesystem, TCP,
signal and abstract-socket scoping), seccomp (deny list on a default-allow filter).
Each layer reports whether it was applied; ``require`` names the layers whose failure
aborts (fail closed). Stdlib + ctypes + libseccomp only (and ``engine.valueclass``: the
``bots`` package loads the engine first): this runs inside the sandbox.

``python -m bots.jail SCRIPT`` hardens from ``$CATAN_JAIL`` and then runs SCRIPT (a
debugging and test entry point mirroring what ``bots.runtime`` does).
"""

from __future__ import annotations

import ctypes
import errno
import marshal
import os
import resource
import sys
import time
from collections.abc import Iterable, Sequence

from engine.static_typing import TYPE_CHECKING
from engine.valueclass import value_class

if TYPE_CHECKING:
    from typing import Any

ENV_VAR = "CATAN_JAIL"
LAYERS = ("rlimits", "no_new_privs", "landlock", "seccomp")

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_SYS_LANDLOCK_CREATE_RULESET = 444  # same number on every architecture
_SYS_LANDLOCK_ADD_RULE = 445
_SYS_LANDLOCK_RESTRICT_SELF = 446


class JailError(RuntimeError):
    """A required hardening layer could not be applied."""


@value_class(slots=False)
class JailLimits:
    """The rlimits set in the child (the parent's ``Limits`` carries more)."""

    address_space: int = 1 << 30
    cpu_seconds: int = 120
    open_files: int = 64
    file_size: int = 16 << 20
    processes: int = 0


class JailReport:
    """Which layers were applied, and why not where they were not (a mutable record, as
    ``@dataclass`` made it: init, repr, eq, unhashable)."""

    __match_args__ = ("applied", "errors", "landlock_abi", "elapsed_ms")
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        applied: dict[str, bool] | None = None,
        errors: dict[str, str] | None = None,
        landlock_abi: int = 0,
        elapsed_ms: float = 0.0,
    ) -> None:
        self.applied = dict.fromkeys(LAYERS, False) if applied is None else applied
        self.errors: dict[str, str] = {} if errors is None else errors
        self.landlock_abi = landlock_abi
        self.elapsed_ms = elapsed_ms

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__match_args__)
        return f"{type(self).__qualname__}({pairs})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.as_dict() == other.as_dict()

    def as_dict(self) -> dict[str, Any]:
        return {
            "applied": dict(self.applied),
            "errors": dict(self.errors),
            "landlock_abi": self.landlock_abi,
            "elapsed_ms": self.elapsed_ms,
        }


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _syscall(number: int, *args: int | ctypes.c_void_p) -> int:
    cargs = [a if isinstance(a, ctypes.c_void_p) else ctypes.c_long(a) for a in args]
    return int(_libc.syscall(ctypes.c_long(number), *cargs))


def _check(ret: int) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return ret


# --- rlimits -------------------------------------------------------------------------


def _apply_rlimits(limits: JailLimits) -> None:
    cpu = limits.cpu_seconds
    for res, soft, hard in (
        (resource.RLIMIT_CORE, 0, 0),
        (resource.RLIMIT_AS, limits.address_space, limits.address_space),
        (resource.RLIMIT_CPU, cpu, cpu + 1),
        (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_size, limits.file_size),
        (resource.RLIMIT_NPROC, limits.processes, limits.processes),
    ):
        resource.setrlimit(res, (soft, hard))


def _apply_no_new_privs() -> None:
    _check(_libc.prctl(_PR_SET_NO_NEW_PRIVS, ctypes.c_ulong(1), 0, 0, 0))
    _check(
        _libc.prctl(_PR_SET_DUMPABLE, ctypes.c_ulong(0), 0, 0, 0)
    )  # no /proc/PID/mem for same-uid peers


# --- Landlock ------------------------------------------------------------------------

_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1, 2, 4, 8
_FS_REMOVE_DIR, _FS_REMOVE_FILE, _FS_MAKE_CHAR, _FS_MAKE_DIR = 16, 32, 64, 128
_FS_MAKE_REG, _FS_MAKE_SOCK, _FS_MAKE_FIFO, _FS_MAKE_BLOCK = 256, 512, 1024, 2048
_FS_MAKE_SYM, _FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 4096, 8192, 16384, 32768
_NET_ALL = 1 | 2  # BIND_TCP | CONNECT_TCP
_SCOPE_ALL = 1 | 2  # ABSTRACT_UNIX_SOCKET | SIGNAL
_FILE_ONLY = _FS_EXECUTE | _FS_WRITE_FILE | _FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
_READ = _FS_READ_FILE | _FS_READ_DIR
_WRITE = (
    _READ
    | _FS_WRITE_FILE
    | _FS_REMOVE_DIR
    | _FS_REMOVE_FILE
    | _FS_MAKE_DIR
    | _FS_MAKE_REG
    | _FS_MAKE_FIFO
    | _FS_MAKE_SYM
    | _FS_REFER
    | _FS_TRUNCATE
)
_DEV_FILES = {"/dev/null": _READ | _FS_WRITE_FILE | _FS_TRUNCATE, "/dev/urandom": _READ}


def _addr(struct: ctypes.Structure) -> ctypes.c_void_p:
    return ctypes.c_void_p(ctypes.addressof(struct))


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 when unavailable."""
    ret = _syscall(_SYS_LANDLOCK_CREATE_RULESET, 0, 0, 1)
    return max(int(ret), 0)


def _handled_fs(abi: int) -> int:
    handled = (1 << 13) - 1  # ABI 1: EXECUTE .. MAKE_SYM
    if abi >= 2:
        handled |= _FS_REFER
    if abi >= 3:
        handled |= _FS_TRUNCATE
    if abi >= 5:
        handled |= _FS_IOCTL_DEV
    return handled


def _apply_landlock(abi: int, readable: Iterable[str], writable: Iterable[str]) -> None:
    if abi < 1:
        raise OSError(errno.ENOSYS, "Landlock is not available")
    fs = _handled_fs(abi)
    attr = _RulesetAttr(fs, _NET_ALL if abi >= 4 else 0, _SCOPE_ALL if abi >= 6 else 0)
    fd = _check(_syscall(_SYS_LANDLOCK_CREATE_RULESET, _addr(attr), ctypes.sizeof(attr), 0))
    try:
        rules = [(p, _READ) for p in readable] + [(p, _WRITE) for p in writable]
        rules += list(_DEV_FILES.items())
        for path, access in rules:
            _landlock_allow(fd, path, access & fs)
        _check(_syscall(_SYS_LANDLOCK_RESTRICT_SELF, fd, 0))
    finally:
        os.close(fd)


def _landlock_allow(ruleset_fd: int, path: str, access: int) -> None:
    try:
        pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    try:
        if not os.path.isdir(path):
            access &= _FILE_ONLY
        rule = _PathBeneathAttr(access, pfd)
        _check(_syscall(_SYS_LANDLOCK_ADD_RULE, ruleset_fd, 1, _addr(rule), 0))
    finally:
        os.close(pfd)


# --- seccomp -------------------------------------------------------------------------

DENIED_SYSCALLS = (
    # networking and IPC that could reach outside or other bots
    *("socket", "socketpair", "connect", "bind", "listen", "accept", "accept4"),
    *("shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl"),
    *("semget", "semop", "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend"),
    *("mq_timedreceive", "mq_notify", "mq_getsetattr"),
    # new programs, processes and threads
    *("execve", "execveat", "fork", "vfork", "clone", "clone3"),
    # other processes' memory and handles
    *("ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp"),
    *("pidfd_open", "pidfd_getfd", "pidfd_send_signal", "migrate_pages", "move_pages"),
    # namespaces and mounts
    *("mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "move_mount"),
    *("open_tree", "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr"),
    # kernel attack surface
    *("io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "perf_event_open"),
    *("userfaultfd", "keyctl", "add_key", "request_key", "personality", "init_module"),
    *("finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot"),
    *("swapon", "swapoff", "acct", "quotactl", "syslog", "vhangup", "iopl", "ioperm"),
    *("name_to_handle_at", "open_by_handle_at", "lookup_dcookie", "uselib"),
    *("settimeofday", "clock_settime", "clock_adjtime", "adjtimex"),
    # the host's disks: one sync() flushes every unwritten page of the machine
    *("sync", "syncfs"),
    # watching the shared read-only folders (another bot loading its modules)
    *("inotify_init", "inotify_init1", "fanotify_init"),
    # timers that signal the bot: a POSIX timer's SIGCONT wakes a bot stopped off turn
    # (seccomp cannot read the sigevent, so they are denied outright), and an interval
    # timer's SIGALRM would wake a bot left asleep on its input pipe off turn (the runner
    # freezes only bots that could run: arena_runner.policy.SandboxPolicy.sleep_holds)
    *("timer_create", "setitimer", "alarm"),
)
SELF_ONLY_SYSCALLS = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
"""Signals: only to its own pid (arg 0)."""
OWN_PROCESS_SYSCALLS = (
    "prlimit64",
    "sched_setaffinity",
    "sched_setscheduler",
    "sched_setparam",
    "sched_setattr",
)
"""Calls on a process named by pid (arg 0): only 0, "this process" (a peer's RLIMIT_CPU
set to 1 s kills it; its CPU or priority can be starved)."""
OWN_PRIORITY_SYSCALLS = {"setpriority": 0, "ioprio_set": 1}
"""``(which, who, ...)`` calls: only ``which`` = the process kind (PRIO_PROCESS = 0,
IOPRIO_WHO_PROCESS = 1) and ``who`` = 0 (this process): no process groups, no users."""
_DENIED_IOCTLS = (0x5412, 0x541C)  # TIOCSTI, TIOCLINUX
_F_SETOWN, _F_SETSIG, _F_SETLEASE, _F_NOTIFY, _F_SETOWN_EX = 8, 10, 1024, 1026, 15
_DENIED_FCNTLS = (_F_SETOWN, _F_SETSIG, _F_SETLEASE, _F_NOTIFY, _F_SETOWN_EX)
"""fcntl commands that make the kernel signal a process (SIGIO or a chosen signal)."""
_INT = 0xFFFFFFFF
"""The kernel reads these arguments as 32-bit ints: compare the low 32 bits only, so a
high bit set by the bot cannot make a denied value look different."""


_SCMP_ACT_ALLOW = 0x7FFF0000
_SCMP_ACT_ERRNO = 0x00050000
"""libseccomp's actions (``SCMP_ACT_ALLOW``; ``SCMP_ACT_ERRNO(e)`` is this | ``e``)."""
_SCMP_ARCH_NATIVE = 0
_SCMP_CMP_NE, _SCMP_CMP_MASKED_EQ = 1, 7
_NR_SCMP_ERROR = -1
"""What ``seccomp_syscall_resolve_name_arch`` returns for a name it does not know."""


class _ArgCmp(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``: argument index, comparison, two operands."""

    _fields_ = (
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    )


class _SeccompFilter:
    """A default-allow filter built with libseccomp through ctypes: the five calls the
    jail needs, without a binding package (pyseccomp's start-up imports ``typing`` and
    ``re``: ~6 ms of every bot's start on a slow day)."""

    def __init__(self) -> None:
        lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
        lib.seccomp_init.argtypes = (ctypes.c_uint32,)
        lib.seccomp_init.restype = ctypes.c_void_p
        lib.seccomp_syscall_resolve_name_arch.argtypes = (ctypes.c_uint32, ctypes.c_char_p)
        lib.seccomp_syscall_resolve_name_arch.restype = ctypes.c_int
        lib.seccomp_rule_add_array.argtypes = (
            *(ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p),
        )
        lib.seccomp_rule_add_array.restype = ctypes.c_int
        lib.seccomp_load.argtypes = (ctypes.c_void_p,)
        lib.seccomp_load.restype = ctypes.c_int
        lib.seccomp_release.argtypes = (ctypes.c_void_p,)
        lib.seccomp_release.restype = None
        self._lib = lib
        self._ctx = lib.seccomp_init(_SCMP_ACT_ALLOW)
        if not self._ctx:
            raise OSError(errno.EINVAL, "seccomp_init failed")

    def deny(self, name: str, *compare: tuple[int, int, int, int]) -> None:
        """Fail ``name`` with EPERM where every ``(arg, op, a, b)`` comparison holds; an
        unknown syscall name fails the layer (closed), never skipped."""
        number = self._lib.seccomp_syscall_resolve_name_arch(_SCMP_ARCH_NATIVE, name.encode())
        if number == _NR_SCMP_ERROR:
            raise OSError(errno.EINVAL, f"seccomp does not know the syscall {name!r}")
        args = (_ArgCmp * len(compare))(*(_ArgCmp(*c) for c in compare))
        action = _SCMP_ACT_ERRNO | errno.EPERM
        _status(self._lib.seccomp_rule_add_array(self._ctx, action, number, len(compare), args))

    def load(self) -> None:
        """Install the filter on this process (it already has ``no_new_privs``)."""
        try:
            _status(self._lib.seccomp_load(self._ctx))
        finally:
            self._lib.seccomp_release(self._ctx)


def _status(ret: int) -> None:
    """libseccomp's convention: a negative errno on failure."""
    if ret < 0:
        raise OSError(-ret, os.strerror(-ret))


def _apply_seccomp() -> None:
    filt = _SeccompFilter()
    for name in DENIED_SYSCALLS:
        filt.deny(name)
    pid = os.getpid()
    for name in SELF_ONLY_SYSCALLS:
        filt.deny(name, (0, _SCMP_CMP_NE, pid, 0))
    for name in OWN_PROCESS_SYSCALLS:  # any pid but 0 (64-bit compare: high bits deny too)
        filt.deny(name, (0, _SCMP_CMP_NE, 0, 0))
    for name, kind in OWN_PRIORITY_SYSCALLS.items():
        filt.deny(name, (0, _SCMP_CMP_NE, kind, 0))
        filt.deny(name, (1, _SCMP_CMP_NE, 0, 0))
    for request in _DENIED_IOCTLS:
        filt.deny("ioctl", (1, _SCMP_CMP_MASKED_EQ, _INT, request))
    for command in _DENIED_FCNTLS:
        filt.deny("fcntl", (1, _SCMP_CMP_MASKED_EQ, _INT, command))
    # keep the parent-death signal set by the launcher (setpriv --pdeathsig)
    filt.deny("prctl", (0, _SCMP_CMP_MASKED_EQ, _INT, _PR_SET_PDEATHSIG))
    filt.load()


# --- entry points --------------------------------------------------------------------


def harden(
    limits: JailLimits,
    *,
    writable_tmp: str | None,
    readable_paths: Sequence[str],
    require: Iterable[str] = LAYERS,
    apply: Iterable[str] = LAYERS,
) -> JailReport:
    """Apply the layers in ``apply`` (all by default); raise ``JailError`` if a required
    one failed."""
    started = time.perf_counter()
    report = JailReport(landlock_abi=landlock_abi())
    writable = [writable_tmp] if writable_tmp else []
    steps = {
        "rlimits": lambda: _apply_rlimits(limits),
        "no_new_privs": _apply_no_new_privs,
        "landlock": lambda: _apply_landlock(report.landlock_abi, readable_paths, writable),
        "seccomp": _apply_seccomp,
    }
    wanted = set(apply)
    for name, step in steps.items():
        if name not in wanted:
            continue
        try:
            step()
            report.applied[name] = True
        except Exception as exc:
            report.errors[name] = f"{type(exc).__name__}: {exc}"
    report.elapsed_ms = round((time.perf_counter() - started) * 1000, 2)
    missing = [name for name in require if not report.applied.get(name)]
    if missing:
        raise JailError(f"required sandbox layers failed: {missing}: {report.errors}")
    return report


def encode_config(config: dict[str, Any]) -> str:
    """``$CATAN_JAIL`` for ``config`` (the parent's side): marshal as hex, which the child
    reads without a JSON parser (one a bot process does not otherwise import)."""
    return marshal.dumps(config).hex()


def harden_from_env() -> JailReport | None:
    """Harden as configured by the parent in ``$CATAN_JAIL``; None when not configured."""
    raw = os.environ.get(ENV_VAR)
    if raw is None:
        return None
    for name in list(os.environ):  # the bot gets an empty environment
        del os.environ[name]
    config = marshal.loads(bytes.fromhex(raw))  # written by encode_config
    return harden(
        JailLimits(**config["limits"]),
        writable_tmp=config.get("writable_tmp"),
        readable_paths=config["readable_paths"],
        require=config.get("require", LAYERS),
        apply=config.get("apply", LAYERS),
    )


def main(argv: Sequence[str]) -> None:
    """Harden from the environment, then run the script ``argv[0]`` as ``__main__``."""
    try:
        report = harden_from_env()
    except JailError as exc:
        print(f"jail: {exc}", file=sys.stderr)
        raise SystemExit(70) from None
    import runpy

    sys.argv = list(argv)
    report_dict = report.as_dict() if report else None
    runpy.run_path(argv[0], init_globals={"JAIL_REPORT": report_dict}, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
