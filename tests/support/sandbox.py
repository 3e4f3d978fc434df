"""What the sandbox tests share: tier gating (skip locally, FAIL in CI) and a loopback
listener that counts the connections it accepts."""

from __future__ import annotations

import os
import socket
import threading

import pytest

from arena_runner.sandbox.tiers import ProbeResult, Tier, probe


def need_tier(tier: Tier) -> ProbeResult:
    """Skip when the host lacks ``tier``, unless under CI, where that is a failure."""
    result = probe()
    if result.tier < tier:
        message = f"sandbox tier {tier.name} unavailable: {result.summary()}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return result


def need_cgroups() -> ProbeResult:
    result = probe()
    if result.cgroups is None:
        message = f"cgroups unavailable: {result.summary()}"
        if os.environ.get("CI") and os.geteuid() == 0:
            pytest.fail(message)
        pytest.skip(message)
    return result


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection it accepts."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()
