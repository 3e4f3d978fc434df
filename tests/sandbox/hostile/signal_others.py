import ctypes
import os
import platform
import signal
import sys

from bots import Player

PARAMS: dict = {}
PTRACE = {"x86_64": 101, "aarch64": 117}[platform.machine()]
PTRACE_ATTACH = 16


class SignalOthers(Player):
    """Tries to kill, stop or ptrace the worker and the other bots (their host pids)."""

    def act(self, observation):
        libc = ctypes.CDLL(None, use_errno=True)
        targets = [*PARAMS["pids"], os.getppid(), 1, -1, 0]
        for pid in targets:
            for sig in (signal.SIGKILL, signal.SIGSTOP):
                if pid in (0, -1) and sig == signal.SIGSTOP:
                    continue
                try:
                    os.kill(pid, sig)
                except OSError as exc:
                    print(f"blocked: kill({pid}, {sig.name}): {exc!r}", file=sys.stderr)
                else:
                    raise RuntimeError(f"ESCAPED: kill({pid}, {sig.name})")
            if pid > 0 and libc.syscall(PTRACE, PTRACE_ATTACH, pid, 0, 0) == 0:
                raise RuntimeError(f"ESCAPED: ptrace({pid})")
        return self.rng.choice(observation.legal_actions)
