"""Starting and killing a bot process: the one place the sandbox replaces.

Everything else in the runner only needs a :class:`subprocess.Popen` with binary
``stdin``/``stdout``/``stderr`` pipes that speaks :mod:`bots.protocol`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path


def spawn_bot_process(path: Path) -> subprocess.Popen[bytes]:
    """Start ``python -I -m bots.runtime PATH`` in a new session with piped stdio."""
    return subprocess.Popen(
        [sys.executable, "-I", "-m", "bots.runtime", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
        close_fds=True,
        start_new_session=True,
    )


def kill_bot_process(process: subprocess.Popen[bytes]) -> None:
    """Kill the bot and anything it started (its whole session), then reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        if process.poll() is None:
            process.kill()
    process.wait()
