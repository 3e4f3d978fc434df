"""Sandbox overhead, measured side by side in one run (min / median / max over repeats).

1. spawn: a bot process from start to its ``ready`` (FULL tier vs plain subprocess);
2. decision round trip of a trivial bot: sandboxed (FULL: paused off turn, i.e. left
   asleep on its input pipe or frozen; and frozen even when asleep, as before issue 25's
   last step), plain subprocess (tier NONE, no freezing), in-process;
3. whole 4-bot games (``random``, the same seeds in every mode): in-process vs sandboxed
   with processes reused across games, spawned per game, spawned per game from blank
   sandboxes started ahead (``BotRunner(warm=4)``), and reused but not on one CPU. The
   blank sandboxes are timed twice: games back to back (a game of random bots lasts
   less than starting its four replacements, so the next game waits for them: the worst
   case), and with the replacements ready before each game starts (a worker's usual
   case, where a game lasts longer than a sandbox's start; the wait is not timed).

Usage: ``python benchmarks/sandbox_overhead.py [--repeats 5]`` (run as root for FULL).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext

from arena_runner import (
    BotRunner,
    InProcessDriver,
    SandboxPolicy,
    SeatDriver,
    SubprocessDriver,
    Tier,
    play_match,
)
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
        times: list[float] = []
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


GAME_SEEDS = range(4)
"""Every repeat plays these games in every mode, so the modes are compared on the same games."""
MODES = (
    "in-process",
    "FULL, processes reused",
    "FULL, spawned per game",
    "FULL, spawned per game, blank sandboxes",
    "FULL, spawned per game, blank sandboxes ready",
    "FULL, reused, not on one CPU",
)


def whole_games(mode: str, full: SandboxPolicy) -> float:
    """Mean wall seconds per game of :data:`GAME_SEEDS` in ``mode`` (start-up included
    when the bots are spawned per game)."""
    random_player = load_player_class("random")
    bot = resolve_bot("random")
    warm = 4 if "blank" in mode else 0
    one_cpu = "not on one CPU" not in mode
    ready = mode.endswith("ready")
    with BotRunner(full if mode != "in-process" else SandboxPolicy(Tier.NONE), warm=warm) as r:
        reused = [r.driver(bot) for _ in range(4)] if "reused" in mode else []
        time.sleep(0.3 if warm else 0.0)  # blank sandboxes start while a worker idles
        waited = 0.0
        began = time.perf_counter()
        for seed in GAME_SEEDS:
            if ready:  # the replacements started during the last game: wait, untimed
                paused = time.perf_counter()
                r.settle()
                waited += time.perf_counter() - paused
            if mode == "in-process":
                seats: Sequence[SeatDriver] = [InProcessDriver(random_player) for _ in range(4)]
            else:
                seats = reused or [r.driver(bot) for _ in range(4)]
            play_match(CONFIG, seed, seats, one_cpu=one_cpu)
            if not reused:
                r.release_all([s for s in seats if isinstance(s, SubprocessDriver)])
        return (time.perf_counter() - began - waited) / len(GAME_SEEDS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    full = resolve_policy(Tier.FULL)
    plain = dataclasses.replace(full, tier=Tier.NONE, cgroups=False, freeze=False)
    always_frozen = dataclasses.replace(full, leave_asleep=False)
    print(f"sandbox: {full.tier.name}, cgroups={full.cgroups}; {args.repeats} repeats")
    print(f"{'':44} {'min':>9} {'median':>9} {'max':>9}")
    for name, policy in (("FULL", full), ("plain subprocess", plain)):
        spawn = [spawn_to_ready(policy) for _ in range(args.repeats)]
        print(f"{'spawn to ready, ' + name:44} {stats(spawn, 1000, 'ms')}")
    n = 300
    rows: dict[str, list[float]] = {
        "FULL": [],
        "FULL, always frozen": [],
        "FULL, bot on another CPU": [],
        "plain subprocess": [],
        "in-process": [],
    }
    rand = load_player_class("random")

    def sandboxed(runner: BotRunner) -> SeatDriver:
        return runner.driver(resolve_bot("random"))

    for _ in range(args.repeats):
        rows["FULL"].append(round_trip(sandboxed, full, n))
        rows["FULL, always frozen"].append(round_trip(sandboxed, always_frozen, n))
        rows["FULL, bot on another CPU"].append(round_trip(sandboxed, full, n, one_cpu=False))
        rows["plain subprocess"].append(round_trip(sandboxed, plain, n))
        rows["in-process"].append(round_trip(lambda r: InProcessDriver(rand), plain, n))
    for name, values in rows.items():
        print(f"{'decision round trip, ' + name:44} {stats(values, 1e6, 'us')}")
    games: dict[str, list[float]] = {mode: [] for mode in MODES}
    extra: dict[str, list[float]] = {mode: [] for mode in MODES[1:]}
    for _ in range(args.repeats):
        for mode in MODES:
            games[mode].append(whole_games(mode, full))
        for mode in MODES[1:]:
            extra[mode].append(games[mode][-1] - games["in-process"][-1])
    for mode, values in games.items():
        print(f"{'4-bot game, ' + mode:44} {stats(values, 1000, 'ms')}")
    print("overhead per game (paired: the same games, minus in-process):")
    for mode, values in extra.items():
        print(f"{'  ' + mode:44} {stats(values, 1000, 'ms')}")
    for mode, label in (
        ("FULL", "overhead per decision, FULL - in-process"),
        ("FULL, always frozen", "  the same, always frozen"),
    ):
        decision = [f - i for f, i in zip(rows[mode], rows["in-process"], strict=True)]
        print(f"{label:44} {stats(decision, 1e6, 'us')}")


if __name__ == "__main__":
    main()
