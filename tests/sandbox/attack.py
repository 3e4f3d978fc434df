"""Run INSIDE the sandbox by ``python -m bots.jail``: tries escapes, prints JSON results.

Staged as a bot directory (``__main__.py`` + ``params.json``: port, worker pid, a project
file and another bot's file). ``JAIL_REPORT`` is injected by bots.jail.
"""

import ctypes
import json
import os
import platform
import resource
import socket
import subprocess
import threading

REPORT = globals().get("JAIL_REPORT") or {"applied": {}}
APPLIED = REPORT["applied"]
with open(os.path.join(os.path.dirname(__file__), "params.json")) as f:
    PARAMS = json.load(f)
PORT, WORKER = PARAMS["port"], PARAMS["worker"]
PROJECT_FILE, OTHER_BOT = PARAMS["project_file"], PARAMS["other_bot"]
SYS = {"x86_64": {"socket": 41, "ptrace": 101}, "aarch64": {"socket": 198, "ptrace": 117}}
NR = SYS[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
results: dict[str, str] = {}


def check(ret: int) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return ret


def attempt(name: str, fn) -> None:
    try:
        value = fn()
    except BaseException as exc:  # MemoryError, OSError, SystemExit...
        results[name] = f"blocked: {type(exc).__name__}: {str(exc)[:120]}"
    else:
        results[name] = f"ALLOWED: {value!r}"[:200]


def read(path: str, mode: str = "r") -> object:
    with open(path, mode) as f:
        return f.read(10)


def write(path: str) -> int:
    with open(path, "w") as f:
        return f.write("ok")


def fork_child() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def memory_bomb() -> int:
    chunks = [bytearray(64 << 20) for _ in range(64)]  # 4 GiB
    return len(chunks)


attempt("tcp_connect", lambda: socket.create_connection(("127.0.0.1", PORT), timeout=2).close())
attempt("raw_socket_syscall", lambda: check(libc.syscall(NR["socket"], 2, 1, 0)))
attempt("unix_socket", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
attempt("read_shadow", lambda: read("/etc/shadow"))
attempt("read_project_file", lambda: read(PROJECT_FILE))
attempt("read_other_bot", lambda: read(OTHER_BOT))
attempt("list_root", lambda: os.listdir("/root"))
attempt("read_parent_environ", lambda: read(f"/proc/{os.getppid()}/environ", "rb"))
attempt("write_bot_dir", lambda: write(os.path.join(os.path.dirname(__file__), "x")))
attempt("write_usr", lambda: write("/usr/evil"))
attempt("kill_parent", lambda: os.kill(os.getppid(), 0))
attempt("kill_worker", lambda: os.kill(WORKER, 0))
attempt("kill_process_group", lambda: os.kill(0, 0))
attempt("kill_everyone", lambda: os.kill(-1, 0))
attempt("ptrace_parent", lambda: check(libc.syscall(NR["ptrace"], 0x4206, os.getppid(), 0, 0)))
attempt("unshare_userns", lambda: check(libc.unshare(0x10000000)))
attempt("thread", lambda: threading.Thread(target=int).start())
attempt("subprocess", lambda: subprocess.run(["/usr/bin/true"], check=True))
attempt("fork", fork_child)
if APPLIED.get("rlimits"):
    attempt("memory_bomb", memory_bomb)
# positive controls: the bot can still compute, write its tmp and read its own file
attempt("ok_write_tmp", lambda: write(os.path.join(os.getcwd(), "scratch")))
attempt("ok_read_own_file", lambda: read(__file__))
attempt("ok_import_engine", lambda: __import__("engine").Game.__name__)
attempt("ok_kill_self", lambda: os.kill(os.getpid(), 0))
if APPLIED.get("seccomp"):  # if exec worked, `true` would replace us and print nothing
    attempt("exec", lambda: os.execv("/usr/bin/true", ["true"]))
limits = {n: resource.getrlimit(getattr(resource, n)) for n in ("RLIMIT_AS", "RLIMIT_CPU")}
print(
    json.dumps({"results": results, "env": dict(os.environ), "report": REPORT, "limits": limits}),
    flush=True,
)
