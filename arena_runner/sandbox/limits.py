"""Resource limits for one sandboxed bot: rlimits, cgroup caps, runner-enforced caps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    """Everything bounded per bot process.

    The first group becomes rlimits in the child (``bots.jail``), the second the bot's
    cgroup and tmpfs, the third is enforced by the runner reading the pipes.
    """

    address_space: int = 1 << 30  # RLIMIT_AS
    cpu_seconds: int = 1200  # RLIMIT_CPU of the process (SIGXCPU, then SIGKILL at +1 s);
    # a reused process is started afresh before a game it could not finish within it
    # (SubprocessDriver.prepare_game: each game may use its whole wall-clock budget)
    open_files: int = 64  # RLIMIT_NOFILE
    file_size: int = 16 << 20  # RLIMIT_FSIZE (writes past it fail with EFBIG)
    processes: int = 0  # RLIMIT_NPROC: no fork, no threads (seccomp also denies clone)
    memory_bytes: int = 1 << 30  # cgroup memory limit (swap 0 where the host allows)
    pids: int = 8  # cgroup pids.max (bwrap monitor + pid-1 + python)
    cpu_quota: float = 1.0  # cgroup CPU bandwidth, in CPUs
    tmp_bytes: int = 16 << 20  # size of the private tmpfs /tmp
    spawn_seconds: float = 30.0  # runner: sandbox up (hello) -- platform time, not the bot's
    import_seconds: float = 10.0  # runner: importing the bot + on_game_start (the bot's)
    message_bytes: int = 1 << 20  # runner: longest accepted protocol line
    log_bytes: int = 64 << 10  # runner: stderr kept per bot and game

    def jail_limits(self) -> dict[str, Any]:
        """The subset ``bots.jail.JailLimits`` takes."""
        return {
            "address_space": self.address_space,
            "cpu_seconds": self.cpu_seconds,
            "open_files": self.open_files,
            "file_size": self.file_size,
            "processes": self.processes,
        }
