"""Worker "machines" on one host, for the scale-out test: each a Linux network namespace
of its own with one address on a veth pair, its own host name (a UTS namespace), CPU,
temp, data, uid-lock and CPU-lock folders and its own pool of sandbox uids, reaching a
PostgreSQL and a Redis of the test's own (``tests.support.services``' throwaway servers,
here on the bridge) over that pair only.

The layout (all made here, all removed by :meth:`Network.close`, even after a failure)::

    host: bridge <prefix>br  10.N.M.1/24   PostgreSQL and Redis listen here, nowhere else
          veth <prefix>m1 ──  eth0 10.N.M.11/24 in netns <prefix>-m1 (host name m1)
          veth <prefix>m2 ──  eth0 10.N.M.12/24 in netns <prefix>-m2 (host name m2)

A namespace has no default route (only the /24 on its veth), so it reaches the
addresses of that subnet and its own loopback, nothing else: not the host's loopback
services, not the host's other addresses, not the internet. Cutting a machine deletes its
veth pair (both ends go at once: the machine is unplugged), then SIGKILLs every process
it ran (:func:`kill_tree`).

Processes run in a machine through ``nsenter --net`` (not ``ip netns exec``, which mounts
a fresh ``/sys`` in a mount namespace of its own, hiding ``/sys/fs/cgroup`` and with it the
bots' cgroups) and ``unshare --uts`` with the machine's host name, so
``socket.gethostname()`` — what a match's ``worker`` field names and what the reaper's
"is that worker dead *here*" check compares — differs between machines, as it would on
real ones (the pid namespace stays shared, so with one host name a machine could see
another's pids die, which real machines cannot).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena_runner.sandbox.cgroups import pid_alive
from tests.support.services import Postgres, Redis, pg_bin

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "cax"
"""Interface and namespace names start with this (interface names are at most 15 bytes)."""


def unavailable() -> str | None:
    """Why machines cannot be simulated here (None if they can)."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "nsenter", "unshare", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            return f"{tool} is missing (iproute2, util-linux, redis-server)"
    try:
        pg_bin()
    except RuntimeError as missing:
        return str(missing)
    return None


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=check, capture_output=True, text=True, timeout=60)


def _free_subnet() -> ipaddress.IPv4Network:
    """A /24 in 10.200.0.0/13 that no address or route of the host touches."""
    used = run("ip", "-4", "-o", "addr", "show").stdout + run("ip", "-4", "route").stdout
    for _ in range(200):
        net = ipaddress.IPv4Network(f"10.{random.randint(200, 207)}.{random.randint(0, 255)}.0/24")
        if f"10.{net.network_address.packed[1]}.{net.network_address.packed[2]}." not in used:
            return net
    raise RuntimeError("no free 10.200.0.0/13 subnet")


def remove_stale() -> list[str]:
    """Namespaces and links of earlier runs whose test process is gone (a killed run)."""
    removed = []
    for line in run("ip", "netns", "list", check=False).stdout.splitlines():
        name = line.split()[0] if line.strip() else ""
        owner = name.removeprefix(PREFIX).split("-")[0]
        if name.startswith(PREFIX) and owner.isdigit() and not pid_alive(int(owner)):
            run("ip", "netns", "del", name, check=False)
            removed.append(name)
    for line in run("ip", "-o", "link", "show", check=False).stdout.splitlines():
        name = line.split(":")[1].strip().split("@")[0]
        tag = name.removeprefix(PREFIX)
        if name.startswith(PREFIX) and tag.endswith("br") and not _owner_alive(tag[:-2]):
            run("ip", "link", "del", name, check=False)
            removed.append(name)
    return removed


def _owner_alive(tag: str) -> bool:
    """Links are named by the owner's pid in base 36 (to fit 15 bytes)."""
    try:
        return pid_alive(int(tag, 36))
    except ValueError:
        return True


@dataclass
class Machine:
    """One simulated worker machine."""

    name: str
    netns: str
    link: str
    address: str
    cpus: str
    uids: str
    home: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def folders(self) -> dict[str, str]:
        """The machine's own folders, by the environment variable naming each."""
        return {
            "TMPDIR": str(self.home / "tmp"),
            "CATAN_ARENA_DATA": str(self.home / "data"),
            "CATAN_SANDBOX_WORKDIR": str(self.home / "work"),
            "CATAN_CPU_LOCK_DIR": str(self.home / "cpu-locks"),
            "CATAN_UID_LOCK_DIR": str(self.home / "uid-locks"),
        }

    def env(self, base: dict[str, str]) -> dict[str, str]:
        return base | self.folders | {"CATAN_SANDBOX_UIDS": self.uids}

    def command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` inside this machine: its network namespace, its host name, its CPUs."""
        return [
            "nsenter", f"--net=/run/netns/{self.netns}",
            "unshare", "--uts", "--",
            "sh", "-c", 'hostname "$0" && exec "$@"', self.name,
            "taskset", "-c", self.cpus, *argv,
        ]  # fmt: skip

    def popen(self, argv: Sequence[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
        """Start ``argv`` in this machine, in a process group of its own."""
        with open(log, "wb") as out:
            process = subprocess.Popen(
                self.command(argv), cwd=ROOT, env=self.env(env), stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.processes.append(process)
        return process

    def check(self, argv: Sequence[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self.command(argv), cwd=ROOT, env=self.env(env), capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip


class Network:
    """The bridge on the host and the machines plugged into it (a context manager)."""

    def __init__(self) -> None:
        remove_stale()
        self.bridge = f"{PREFIX}{_base36(os.getpid())}br"
        self.subnet = _free_subnet()
        self.host = str(self.subnet.network_address + 1)
        self.machines: dict[str, Machine] = {}
        self.home = Path(tempfile.mkdtemp(prefix="catan-machines-"))
        self.home.chmod(0o755)  # the sandbox uids search their work dirs below it
        try:
            run("ip", "link", "add", self.bridge, "type", "bridge")
            run("ip", "addr", "add", f"{self.host}/{self.subnet.prefixlen}", "dev", self.bridge)
            _no_ipv6(self.bridge)
            run("ip", "link", "set", self.bridge, "up")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Network:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def add(self, name: str, *, cpus: str, uids: str) -> Machine:
        index = len(self.machines) + 11
        machine = Machine(
            name=name,
            netns=f"{PREFIX}{os.getpid()}-{name}",
            link=f"{PREFIX}{_base36(os.getpid())}{name}"[:15],
            address=str(self.subnet.network_address + index),
            cpus=cpus,
            uids=uids,
            home=self.home / name,
        )
        self.machines[name] = machine
        run("ip", "netns", "add", machine.netns)
        run("ip", "link", "add", machine.link, "type", "veth", "peer", "name", "eth0",
            "netns", machine.netns)  # fmt: skip
        _no_ipv6(machine.link)
        run("ip", "link", "set", machine.link, "master", self.bridge, "up")
        # IPv4 on the subnet only: no IPv6 (its link-local addresses would reach the host)
        run("nsenter", f"--net=/run/netns/{machine.netns}", "sysctl", "-qw",
            "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")  # fmt: skip
        inside = ("ip", "-n", machine.netns)
        run(*inside, "addr", "add", f"{machine.address}/{self.subnet.prefixlen}", "dev", "eth0")
        run(*inside, "link", "set", "eth0", "up")
        run(*inside, "link", "set", "lo", "up")
        for folder in machine.folders.values():
            Path(folder).mkdir(parents=True)
        machine.home.chmod(0o755)
        (machine.home / "work").chmod(0o755)
        (machine.home / "tmp").chmod(0o1777)
        return machine

    def routes(self, machine: Machine) -> str:
        return run("ip", "-n", machine.netns, "route", "show", "table", "all").stdout

    def freeze(self, machine: Machine) -> set[int]:
        """Stop everything the machine runs (SIGSTOP): it writes nothing more until
        :meth:`thaw` or :meth:`cut`. The processes stopped."""
        stopped: set[int] = set()
        for process in machine.processes:
            stopped |= stop_tree(process.pid, machine.netns)
        return stopped

    def thaw(self, stopped: set[int]) -> None:
        """Let what :meth:`freeze` stopped run on (SIGCONT)."""
        _signal(stopped, signal.SIGCONT)

    def cut(self, machine: Machine) -> None:
        """Unplug the machine (its veth pair deleted), then kill everything it ran."""
        run("ip", "link", "del", machine.link)
        for process in machine.processes:
            kill_tree(process.pid, machine.netns)
        for process in machine.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)

    def stop_processes(self) -> None:
        """SIGKILL whatever the machines still run."""
        for machine in self.machines.values():
            for process in machine.processes:
                kill_tree(process.pid, machine.netns)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(10)

    def close(self) -> None:
        self.stop_processes()
        for machine in self.machines.values():
            run("ip", "link", "del", machine.link, check=False)
            run("ip", "netns", "del", machine.netns, check=False)
        run("ip", "link", "del", self.bridge, check=False)
        shutil.rmtree(self.home, ignore_errors=True)


def _no_ipv6(link: str) -> None:
    Path(f"/proc/sys/net/ipv6/conf/{link}/disable_ipv6").write_text("1")


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def _proc_table() -> dict[int, int]:
    """pid → parent pid of every process."""
    table = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(entry.path, "stat").read_text()
                table[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    return table


def _in_netns(pid: int, netns: str) -> bool:
    try:
        return os.stat(f"/proc/{pid}/ns/net").st_ino == os.stat(f"/run/netns/{netns}").st_ino
    except OSError:
        return False


def machine_pids(root: int, netns: str) -> set[int]:
    """``root``, its descendants, its process group and every process in ``netns``."""
    table = _proc_table()
    found = {pid for pid in table if _in_netns(pid, netns)}
    with contextlib.suppress(ProcessLookupError):
        found |= {pid for pid in table if os.getpgid(pid) == root}
    todo = [root, *found]
    while todo:
        parent = todo.pop()
        found.add(parent)
        todo.extend(pid for pid, ppid in table.items() if ppid == parent and pid not in found)
    return {pid for pid in found if pid in table and pid != os.getpid()}


def stop_tree(root: int, netns: str) -> set[int]:
    """SIGSTOP everything the machine runs (nothing forks or reparents any more), until
    no new process shows up; the processes stopped."""
    stopped: set[int] = set()
    for _ in range(20):
        fresh = machine_pids(root, netns) - stopped
        if not fresh:
            break
        _signal(fresh, signal.SIGSTOP)
        stopped |= fresh
    return stopped


def kill_tree(root: int, netns: str) -> None:
    """Stop everything the machine runs, then SIGKILL it all: a machine lost, all at once."""
    _signal(stop_tree(root, netns), signal.SIGKILL)


def _signal(pids: set[int], number: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, number)


def postgres_on(address: str, subnet: str) -> Postgres:
    """A throwaway PostgreSQL listening on ``address`` only, trusting ``subnet``."""
    return Postgres(
        address,
        trust=subnet,
        options=(
            # a machine cut off mid-transaction must not hold its locks for hours
            # (README "Adding a worker machine")
            "-c idle_in_transaction_session_timeout=30s",
            "-c tcp_keepalives_idle=10", "-c tcp_keepalives_interval=5",
            "-c tcp_keepalives_count=3",
        ),
    )  # fmt: skip


class HostProcess:
    """A process on the host (beat: the control machine's scheduler), its own group."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                list(argv), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def celery(*args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "catan_arena", *args]


def wait_output(
    read: object, marker: str, seconds: float, process: subprocess.Popen[bytes]
) -> None:
    """Until ``marker`` is in ``read()`` (a process's log)."""
    assert callable(read)
    deadline = time.monotonic() + seconds
    while marker not in read():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"no {marker!r} (exit {process.poll()}):\n{read()[-4000:]}")
        time.sleep(0.1)


@contextlib.contextmanager
def machines_with_services(
    names: Sequence[str], cpus: Sequence[str]
) -> Iterator[tuple[Network, Postgres, Redis]]:
    """The network, its machines, and PostgreSQL and Redis on the bridge; all removed
    at the end whatever happens."""
    with contextlib.ExitStack() as stack:
        network = stack.enter_context(Network())
        pool = 64000
        for name, cpu in zip(names, cpus, strict=True):
            network.add(name, cpus=cpu, uids=f"{pool}-{pool + 63}")  # disjoint: own kernels
            pool += 64
        postgres = postgres_on(network.host, str(network.subnet))
        stack.callback(postgres.close)
        redis = Redis(network.host)
        stack.callback(redis.close)
        stack.callback(network.stop_processes)  # first: the workers, then the services
        yield network, postgres, redis
