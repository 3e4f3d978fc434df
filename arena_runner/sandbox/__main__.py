"""``python -m arena_runner.sandbox [REPEATS]``: print the probe and the spawn costs."""

from __future__ import annotations

import logging
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arena_runner.sandbox.botenv import REPO_ROOT, ensure_botenv
from arena_runner.sandbox.launch import (
    ENV_MOUNT,
    SANDBOX_UID,
    bwrap_args,
    drop_privileges,
    spawn_sandboxed,
)
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier, probe


def _timed(run: Callable[[], object], repeats: int) -> str:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return (
        f"min {min(times):6.1f}  median {statistics.median(times):6.1f}  max {max(times):6.1f} ms"
    )


def main(argv: list[str]) -> int:
    """Probe the host, then time a start-to-exit of a trivial bot at each working tier."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    repeats = int(argv[0]) if argv else 10
    result = probe()
    python = str(ensure_botenv() / "bin" / "python")
    imports = f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); import bots.jail"
    rows: dict[str, Callable[[], object]] = {
        "python -I -c pass": lambda: subprocess.run([python, "-I", "-c", "pass"], check=True),
        "python -I (import bots.jail)": lambda: subprocess.run(
            [python, "-I", "-c", imports], check=True
        ),
    }
    with tempfile.TemporaryDirectory(prefix="catan-bench-") as tmp:
        work = Path(tmp)
        work.chmod(0o711)
        bot = work / "noop.py"
        bot.write_text("import sys\nprint(JAIL_REPORT['elapsed_ms'])\n")
        harden_ms: list[float] = []
        seat = work / "seat-bwrap"
        seat.mkdir(mode=0o755)
        bwrap = [*bwrap_args(ensure_botenv(), seat, Limits()), "--", ENV_MOUNT + "/bin/python"]
        rows["bwrap + python -I -c pass"] = lambda: subprocess.run(
            [*drop_privileges(SANDBOX_UID), *bwrap, "-I", "-c", "pass"], check=True
        )

        def sandboxed(tier: Tier) -> Callable[[], None]:
            def run() -> None:
                proc = spawn_sandboxed(
                    bot, tier=tier, limits=Limits(), workdir=work, module="bots.jail"
                )
                out, err = proc.communicate()
                if proc.returncode:
                    raise RuntimeError(err.decode())
                harden_ms.append(float(out))

            return run

        for tier in (Tier.FULL, Tier.NO_NAMESPACES, Tier.NO_LANDLOCK):
            if result.tier >= tier:
                rows[f"sandbox {tier.name} (+ harden)"] = sandboxed(tier)
        for name, run in rows.items():
            print(f"{name:32} {_timed(run, repeats)}")
        if harden_ms:
            print(
                f"{'harden() alone, in the child':32} median {statistics.median(harden_ms):.1f} ms"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
