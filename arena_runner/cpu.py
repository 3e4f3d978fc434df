"""CPU time of a bot process, read from ``/proc`` (nanosecond schedstat when present)."""

from __future__ import annotations

import os
from pathlib import Path

_TICK = 1.0 / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by process ``pid`` (0.0 once it is gone).

    ``/proc/PID/schedstat`` (time on a CPU, ns) is preferred to the 10 ms ticks of
    ``utime + stime`` in ``/proc/PID/stat``; the bot cannot fork or start threads."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as f:
            return int(f.read().split(None, 1)[0]) / 1e9
    except (OSError, ValueError, IndexError):
        pass
    try:
        fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return sum(int(x) for x in fields[11:15]) * _TICK  # utime stime cutime cstime


def process_chain(pid: int) -> list[int]:
    """``pid`` and its last child, that one's last child... (setpriv -> bwrap -> bwrap's
    init -> python)."""
    chain = [pid]
    for _ in range(8):
        current = chain[-1]
        try:
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            break
        if not children:
            break
        chain.append(int(children[-1]))
    return chain


def leaf_pid(pid: int) -> int:
    """The innermost process of :func:`process_chain`."""
    return process_chain(pid)[-1]
