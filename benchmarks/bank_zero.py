"""No innocent forfeits (issue 19): games of four sandboxed ``random`` bots at a time
bank of 0 (the default of ``play_match``, ``catan-arena play`` and validation), with
CPU burners competing for every core; prints the games, forfeits and off-turn CPU
charged. ``make bench-bank-zero`` (``python -m benchmarks.bank_zero [GAMES]``)."""

from __future__ import annotations

import multiprocessing
import sys
import time
from dataclasses import dataclass, field

from arena_runner import BotRunner, play_match, resolve_policy
from arena_runner.clock_limits import DECISION_SECONDS
from bots.registry import resolve_bot
from engine import RulesConfig


@dataclass
class Tally:
    games: int = 0
    decisions: int = 0
    forfeits: list[str] = field(default_factory=list)
    offturn_charged: float = 0.0
    """The bots' own off-turn CPU (what the bank pays for), summed."""
    seconds: float = 0.0


def _burn() -> None:
    while True:
        pass


def burners(count: int) -> list[multiprocessing.Process]:
    """``count`` processes spinning on the CPU (the caller terminates them)."""
    procs = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(count)]
    for proc in procs:
        proc.start()
    return procs


def play(games: int, *, load: int | None = None, seed: str = "bank-zero") -> Tally:
    """``games`` games at bank 0 (1 s per decision, validation's), processes reused,
    with ``load`` burners (default: one per CPU) running throughout."""
    tally = Tally()
    spinning = burners(multiprocessing.cpu_count() if load is None else load)
    began = time.perf_counter()
    try:
        with BotRunner(resolve_policy()) as runner:
            drivers = [runner.driver(resolve_bot("random"), f"random-{s}") for s in range(4)]
            for g in range(games):
                result = play_match(
                    RulesConfig(), f"{seed}/{g}", drivers,
                    decision_timeout=DECISION_SECONDS, time_bank=0.0,
                )  # fmt: skip
                tally.games += 1
                tally.decisions += sum(s.decisions for s in result.stats)
                tally.offturn_charged += sum(s.offturn_cpu for s in result.stats)
                tally.forfeits += [f"game {g}: {f.reason}" for f in result.forfeits]
                if tally.games % 50 == 0:
                    print(f"  {tally.games}/{games} games, {len(tally.forfeits)} forfeits",
                          file=sys.stderr, flush=True)  # fmt: skip
    finally:
        for proc in spinning:
            proc.terminate()
            proc.join()
    tally.seconds = time.perf_counter() - began
    return tally


def main(argv: list[str]) -> int:
    """``[GAMES [BURNERS]]``: 1,000 games and one burner per CPU by default."""
    games = int(argv[0]) if argv else 1000
    load = int(argv[1]) if len(argv) > 1 else multiprocessing.cpu_count()
    tally = play(games, load=load)
    print(
        f"{tally.games} games, {tally.decisions} decisions, bank 0, "
        f"{load} CPU burners: {len(tally.forfeits)} forfeits; "
        f"off-turn CPU charged {tally.offturn_charged * 1000:.3f} ms in all; "
        f"{tally.seconds:.0f} s"
    )
    for line in tally.forfeits[:10]:
        print("  ", line)
    return 1 if tally.forfeits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
