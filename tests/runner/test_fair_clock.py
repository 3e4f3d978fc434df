"""The clock is fair both ways (issue 19): a bot that sleeps pays for its wall clock like
CPU, so it cannot hold a worker past its budget plus a small slack; an innocent bot is
never charged for its runtime's bookkeeping, so a bank of 0 cannot forfeit it; a reply
naming a key twice is garbage. Each protection has a control that shows the test
would see it missing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena_runner import (
    BotRunner,
    Fault,
    FaultKind,
    InProcessDriver,
    SubprocessDriver,
    play_match,
    resolve_policy,
)
from arena_runner.seats import Seat
from arena_runner.timeouts import WALL_SLACK, TimeoutClock, decision_cost
from bots.builtin.random_bot import RandomPlayer
from engine import Clock, Game, RulesConfig
from tests.support.drivers import READY, fake_child, start

ACTION = b'{"type": "action", "action": 0, "seq": SEQ}\n'
BURST = 0.005
"""CPU seconds a scripted bot "uses" at one moment: five times the off-turn allowance."""


def _scripted(driver: SubprocessDriver, monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Make the bot's CPU clock scriptable: the function returned makes it jump by
    :data:`BURST` (as if the bot ran that long just then)."""
    proc = driver.process
    assert proc is not None
    extra = [0.0]
    real_cpu, real_schedstat = proc.cpu, proc.schedstat

    def schedstat() -> tuple[float, float]:
        ran, waited = real_schedstat()
        return ran + extra[0], waited

    monkeypatch.setattr(proc, "cpu", lambda: real_cpu() + extra[0])
    monkeypatch.setattr(proc, "schedstat", schedstat)

    def burn() -> None:
        extra[0] += BURST

    return burn


def _tail_before_freeze(driver: SubprocessDriver, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its runtime finishing a reply: a burst just before each freeze lands."""
    proc = driver.process
    assert proc is not None
    burn, freeze = _scripted(driver, monkeypatch), proc.freeze

    def late_freeze() -> None:
        if not proc.frozen:
            burn()
        freeze()

    monkeypatch.setattr(proc, "freeze", late_freeze)


def _decide_at_bank_zero(driver: SubprocessDriver) -> tuple[bool, float]:
    """One decision of seat 0 at bank 0, charged as the match charges it."""
    seat = Seat(0, driver, bank=0.0)
    clock = Clock(1.0, 0.0)
    reply = driver.act(Game.new(RulesConfig(), 1).observe(0), clock)
    assert not isinstance(reply, Fault), reply
    return seat.charge(clock, driver.last_cpu, driver.last_offturn_cpu), driver.last_offturn_cpu


def test_the_tail_of_a_reply_before_its_freeze_is_not_charged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    driver = SubprocessDriver("fake.py", spawn=fake_child(tmp_path, READY, ACTION, ACTION))
    try:
        _tail_before_freeze(driver, monkeypatch)
        assert start(driver) is None  # ready, then frozen (a burst before the freeze)
        in_time, offturn = _decide_at_bank_zero(driver)
        assert in_time and offturn < BURST / 2, offturn
    finally:
        driver.close()


def test_control_cpu_used_while_frozen_is_the_bots_own_and_charged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It escaped the freezer (or the freezer failed): that CPU is charged, and a bank
    of 0 is overdrawn."""
    driver = SubprocessDriver("fake.py", spawn=fake_child(tmp_path, READY, ACTION, ACTION))
    try:
        burn = _scripted(driver, monkeypatch)
        assert start(driver) is None
        burn()  # while frozen
        in_time, offturn = _decide_at_bank_zero(driver)
        assert offturn >= 0.9 * BURST and not in_time, offturn
    finally:
        driver.close()


def test_deciding_again_right_away_is_not_off_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two decisions in a row (no freeze between them): the moments between are the
    runtime's and the runner's, not the bot's."""
    driver = SubprocessDriver("fake.py", spawn=fake_child(tmp_path, READY, ACTION, ACTION))
    try:
        assert start(driver) is None
        assert _decide_at_bank_zero(driver)[0]
        _scripted(driver, monkeypatch)()  # its reply's tail, and the runner's next step
        in_time, offturn = _decide_at_bank_zero(driver)
        assert in_time and offturn == 0.0, offturn
    finally:
        driver.close()


def test_a_decision_costs_its_cpu_or_its_wall_clock_less_the_slack() -> None:
    assert decision_cost(0.3, 0.35) == 0.3  # computing: its CPU
    assert decision_cost(0.001, 0.5) == pytest.approx(0.5 - WALL_SLACK)  # sleeping: wall
    seat = Seat(0, InProcessDriver(RandomPlayer), bank=1.0)
    assert seat.charge(Clock(0.1, 1.0), cpu=0.001, wall=0.5)
    assert seat.bank == pytest.approx(1.0 - (0.5 - WALL_SLACK - 0.1))
    zero = Seat(0, InProcessDriver(RandomPlayer), bank=0.0)
    assert zero.charge(Clock(0.1, 0.0), cpu=0.05, wall=0.1 + WALL_SLACK)  # within: stays 0
    assert zero.bank == 0.0


SLEEPER = """
import time
from bots import Player


class Sleeper(Player):
    def act(self, observation):
        time.sleep({seconds})
        return self.rng.choice(observation.legal_actions)
"""
DECISION, BANK, NAP = 0.05, 0.5, 0.3
"""The sleeper's clock, and the nap it takes every decision (0.3 s of wall clock at
almost no CPU: six decisions' worth)."""


def test_a_sleeping_bot_is_forfeited_within_its_allowance(tmp_path: Path) -> None:
    """Its wall clock is charged like CPU: it is forfeited once its waiting overdraws
    the bank, having held its seat no longer than its decisions' budgets, the slack
    and its bank allow. (Before, each decision could take 3 x 0.05 + 0.5 s and only the
    game's 6.5 s wall-clock budget stopped it.)"""
    bot = tmp_path / "sleeper.py"
    bot.write_text(SLEEPER.format(seconds=NAP))
    config = RulesConfig(players=3)
    with BotRunner(resolve_policy()) as runner:
        drivers = [
            runner.driver(bot),
            InProcessDriver(RandomPlayer),
            InProcessDriver(RandomPlayer),
        ]
        result = play_match(config, 7, drivers, decision_timeout=DECISION, time_bank=BANK)
    stats = result.stats[0]
    assert result.forfeited == {0}
    fault = result.faults[0][-1]
    assert fault.kind is FaultKind.TIMEOUT
    assert fault.clock in (TimeoutClock.BANK, TimeoutClock.DECISION), fault
    allowance = stats.decisions * (DECISION + WALL_SLACK) + BANK
    # the last decision is stopped at its cap (what was left of the bank), then its
    # sandbox is killed (0.1-0.4 s, in the decision's time): a margin for that on a
    # loaded machine, nothing like the 6.5 s the game's budget allowed
    assert stats.total <= allowance + 1.0, (stats, allowance)
    assert stats.cpu < 0.1 * stats.total  # it really was asleep


def test_control_a_bot_within_its_clock_is_not_forfeited(tmp_path: Path) -> None:
    """The same sleeper, napping less than its decision's budget plus the slack, with the
    same bank: a decision a loaded machine delays (0.2 s of wall clock was seen in a
    fresh-clone run) draws on the bank as the sleeper's naps do, without a forfeit."""
    bot = tmp_path / "napper.py"
    bot.write_text(SLEEPER.format(seconds=0.02))
    with BotRunner(resolve_policy()) as runner:
        drivers = [
            runner.driver(bot),
            InProcessDriver(RandomPlayer),
            InProcessDriver(RandomPlayer),
        ]
        config = RulesConfig(players=3, vp_to_win=5)
        result = play_match(config, 7, drivers, decision_timeout=DECISION, time_bank=BANK)
    assert result.forfeited == set(), result.faults
    assert result.stats[0].decisions > 10


DUPLICATE = b'{"type": "action", "action": 0, "action": 1, "seq": SEQ}\n'


@pytest.mark.parametrize(("reply", "garbage"), [(DUPLICATE, True), (ACTION, False)])
def test_a_reply_naming_a_key_twice_is_garbage(tmp_path: Path, reply: bytes, garbage: bool) -> None:
    driver = SubprocessDriver("fake.py", spawn=fake_child(tmp_path, READY, reply))
    try:
        assert start(driver) is None
        answer = driver.act(Game.new(RulesConfig(), 1).observe(0), Clock(5.0, 0.0))
        if garbage:
            assert isinstance(answer, Fault) and answer.kind is FaultKind.GARBAGE, answer
            assert "'action' is given twice" in answer.message
            assert not driver.alive
        else:  # control: the same reply with the key once is an answer
            assert not isinstance(answer, Fault), answer
    finally:
        driver.close()


class _Waiter(InProcessDriver):
    """A trusted player whose first five decisions take 0.25 s of wall clock and no CPU,
    of which ``waited`` seconds the kernel reports as waiting for a CPU (a busy
    machine); it answers at once after that."""

    def __init__(self, waited: float) -> None:
        super().__init__(RandomPlayer, "waiter")
        self.waited = waited
        self.slow = 5

    def act(self, observation: Any, clock: Clock) -> Any:
        import time

        slow, self.slow = self.slow > 0, self.slow - 1
        if slow:
            time.sleep(0.25)
        reply = super().act(observation, clock)
        self.last_cpu, self.last_waited = 0.0, (self.waited if slow else 0.0)
        return reply


@pytest.mark.parametrize(("waited", "forfeited"), [(0.24, False), (0.0, True)])
def test_time_spent_waiting_for_a_cpu_is_not_charged(waited: float, forfeited: bool) -> None:
    """0.25 s of wall clock a decision against 0.05 s and a bank of 0: charged when the
    bot slept (forfeited: the control), not when the machine's load held it."""
    drivers = [_Waiter(waited), InProcessDriver(RandomPlayer), InProcessDriver(RandomPlayer)]
    config = RulesConfig(players=3, vp_to_win=3)
    result = play_match(config, 11, drivers, decision_timeout=0.05, time_bank=0.0)
    assert (0 in result.forfeited) is forfeited, result.faults[0]
    if forfeited:
        assert result.faults[0][0].clock is TimeoutClock.BANK


@pytest.mark.serial  # it measures waiting for a CPU: other tests' load would blur it
def test_a_process_waiting_for_its_cpu_is_seen_waiting() -> None:
    """A bot process's runqueue wait, read from its schedstat, grows when a burner shares
    its CPU (the control: on its own, it barely waits)."""
    import os
    import subprocess
    import sys
    import time

    from arena_runner.process import BotProcess

    spin = "import time\nend = time.monotonic() + {s}\nwhile time.monotonic() < end: pass\n"
    cpu = sorted(os.sched_getaffinity(0))[-1]

    def measure(burner: bool) -> float:
        burn = None
        if burner:
            burn = subprocess.Popen([sys.executable, "-c", spin.format(s=3)])
            os.sched_setaffinity(burn.pid, {cpu})
        bot = subprocess.Popen([sys.executable, "-c", spin.format(s=2)])
        os.sched_setaffinity(bot.pid, {cpu})
        try:
            proc = BotProcess(bot)
            proc.find_bot()
            time.sleep(1.5)
            return proc.waited()
        finally:
            for child in (bot, burn):
                if child is not None:
                    child.kill()
                    child.wait()

    alone, shared = measure(False), measure(True)
    assert shared > 0.3, (alone, shared)  # about half of its time went to the burner
    assert alone < shared / 2, (alone, shared)
