"""Sandbox overhead, measured side by side in one run (min / median / max over repeats).

1. spawn: a bot process from start to its ``ready`` (FULL tier vs plain subprocess);
2. decision round trip of a trivial bot: sandboxed (FULL, frozen off turn), plain
   subprocess (tier NONE, no freezing), in-process;
3. a whole 4-bot game (``random``): sandboxed vs in-process, processes spawned per game
   and reused across games.

Usage: ``python benchmarks/sandbox_overhead.py [--repeats 5]`` (run as root for FULL).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Callable
from contextlib import nullcontext

from arena_runner import BotRunner, InProcessDriver, SandboxPolicy, SeatDriver, Tier, play_match
from arena_runner.affinity import claimed_cpu
from arena_runner.policy import resolve_policy
from bots.registry import load_player_class, resolve_bot
from engine import Clock, Game, RulesConfig

CONFIG = RulesConfig()


def stats(values: list[float], unit: float, suffix: str) -> str:
    lo, mid, hi = min(values), statistics.median(values), max(values)
    return f"{lo * unit:9.2f} {mid * unit:9.2f} {hi * unit:9.2f} {suffix}"


def spawn_to_ready(policy: SandboxPolicy) -> float:
    game = Game.new(CONFIG, 1)
    with BotRunner(policy) as runner:
        began = time.perf_counter()
        driver = runner.driver(resolve_bot("random"))
        driver.start(0, CONFIG, game.layout, 1, game.observe(0, with_legal=False))
        return time.perf_counter() - began


def round_trip(
    make: Callable[[BotRunner], SeatDriver], policy: SandboxPolicy, n: int, one_cpu: bool = True
) -> float:
    """Median seconds per ``act`` of the random bot, alternating with a pause (freeze),
    on the decisions of a real game (each a delta of the seat's observation stream).
    ``one_cpu``: runner and bot on one claimed CPU, as ``play_match`` runs them."""
    game = Game.new(CONFIG, 1)
    rng = random.Random(1)
    with BotRunner(policy) as runner, claimed_cpu() if one_cpu else nullcontext() as cpu:
        driver = make(runner)
        driver.start(0, CONFIG, game.layout, 1, game.observe(0, with_legal=False))
        if cpu is not None:
            driver.pin(cpu)
        times = []
        while len(times) < n:
            if game.is_over:
                driver.end(game.observe(0, with_legal=False), game.outcome)  # type: ignore[arg-type]
                game = Game.new(CONFIG, len(times))
                driver.start(0, CONFIG, game.layout, 1, game.observe(0, with_legal=False))
            if game.decider == 0:
                observation = game.observe(0)
                began = time.perf_counter()
                driver.act(observation, Clock(5.0, 0.0))
                driver.pause()
                times.append(time.perf_counter() - began)
            game.apply_unchecked(rng.choice(game.legal_actions()))
        return statistics.median(times)


def whole_games(
    policy: SandboxPolicy | None, games: int, reuse: bool, one_cpu: bool = True
) -> list[float]:
    """Wall seconds per game (spawn included unless ``reuse``) and the decisions made."""
    out = []
    random_player = load_player_class("random")
    with BotRunner(policy or SandboxPolicy(Tier.NONE)) as runner:
        drivers = [runner.driver(resolve_bot("random")) for _ in range(4)] if reuse else []
        for seed in range(games):
            began = time.perf_counter()
            if policy is None:
                seats = [InProcessDriver(random_player) for _ in range(4)]
                play_match(CONFIG, seed, seats, one_cpu=one_cpu)
            elif reuse:
                play_match(CONFIG, seed, drivers, one_cpu=one_cpu)
            else:
                fresh = [runner.driver(resolve_bot("random")) for _ in range(4)]
                play_match(CONFIG, seed, fresh, one_cpu=one_cpu)
                for d in fresh:
                    d.close()
            out.append(time.perf_counter() - began)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    full = resolve_policy(Tier.FULL)
    plain = dataclasses.replace(full, tier=Tier.NONE, cgroups=False, freeze=False)
    print(f"sandbox: {full.tier.name}, cgroups={full.cgroups}; {args.repeats} repeats")
    print(f"{'':44} {'min':>9} {'median':>9} {'max':>9}")
    for name, policy in (("FULL", full), ("plain subprocess", plain)):
        spawn = [spawn_to_ready(policy) for _ in range(args.repeats)]
        print(f"{'spawn to ready, ' + name:44} {stats(spawn, 1000, 'ms')}")
    n = 300
    rows: dict[str, list[float]] = {
        "FULL": [],
        "FULL, bot on another CPU": [],
        "plain subprocess": [],
        "in-process": [],
    }
    rand = load_player_class("random")

    def sandboxed(runner: BotRunner) -> SeatDriver:
        return runner.driver(resolve_bot("random"))

    for _ in range(args.repeats):
        rows["FULL"].append(round_trip(sandboxed, full, n))
        rows["FULL, bot on another CPU"].append(round_trip(sandboxed, full, n, one_cpu=False))
        rows["plain subprocess"].append(round_trip(sandboxed, plain, n))
        rows["in-process"].append(round_trip(lambda r: InProcessDriver(rand), plain, n))
    for name, values in rows.items():
        print(f"{'decision round trip, ' + name:44} {stats(values, 1e6, 'us')}")
    games = args.repeats
    in_proc = whole_games(None, games, reuse=False)
    reused = whole_games(full, games, reuse=True)
    fresh = whole_games(full, games, reuse=False)
    spread = whole_games(full, games, reuse=True, one_cpu=False)
    print(f"{'4-bot game, in-process':44} {stats(in_proc, 1000, 'ms')}")
    print(f"{'4-bot game, FULL, processes reused':44} {stats(reused, 1000, 'ms')}")
    print(f"{'4-bot game, FULL, spawned per game':44} {stats(fresh, 1000, 'ms')}")
    print(f"{'4-bot game, FULL, reused, not on one CPU':44} {stats(spread, 1000, 'ms')}")
    med_in = statistics.median(in_proc)
    print(
        f"overhead per game: {1000 * (statistics.median(reused) - med_in):.0f} ms reused, "
        f"{1000 * (statistics.median(fresh) - med_in):.0f} ms spawned; per decision "
        f"{1e6 * (statistics.median(rows['FULL']) - statistics.median(rows['in-process'])):.0f}"
        " us (FULL - in-process)"
    )


if __name__ == "__main__":
    main()
