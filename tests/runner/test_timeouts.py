"""Every time-out names the clock that ran out — the decision, the bank or the game's
wall-clock budget — with its figures and what to change; a bot that budgets by
``clock.decision`` and ``clock.game`` passes the clock a naive one fails.

Validated under a tight policy (0.05 s decisions, 0.2 s bank, a 3 s game budget) so the
games are short; the default policy's figures are the same code."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_runner import BotRunner, resolve_policy
from arena_runner.result import FaultKind
from arena_runner.timeouts import TimeoutClock
from arena_runner.validation import Verdict, validate_bot
from arena_runner.validation_policy import ValidationPolicy

ROOT = Path(__file__).resolve().parents[2]
TIGHT = ValidationPolicy(decision_seconds=0.05, time_bank_seconds=0.2, game_seconds=3.0)
SEED = "timeouts"

BOT = """
import time
from bots import Player


def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


class Bot(Player):
    def act(self, observation):
        legal = observation.legal_actions
        if len(legal) > 1:
{body}
        return self.rng.choice(legal)
"""

BODIES = {
    # 80% of clock.decision every decision: within each decision, not within the game
    "naive": "            burn(0.8 * observation.clock.decision)",
    # asleep far past one decision's wall-clock cap (0.05 + 0.2 + 0.1 s of slack)
    "sleeper": "            time.sleep(5)",
    # 0.08 s of CPU on 0.05 s decisions: 0.03 s a decision from a 0.2 s bank
    "overdraws": "            burn(0.08)",
}


def validate(tmp_path: Path, source: str, policy: ValidationPolicy = TIGHT) -> Verdict:
    bot = tmp_path / "bot.py"
    bot.write_text(source)
    with BotRunner(resolve_policy()) as runner:
        return validate_bot(bot, runner, seed=SEED, policy=policy)


def bot(name: str) -> str:
    return BOT.format(body=BODIES[name])


def test_a_bot_thinking_most_of_each_decision_runs_out_of_the_game_budget(
    tmp_path: Path,
) -> None:
    verdict = validate(tmp_path, bot("naive"))
    assert verdict.valid is False and verdict.kind == FaultKind.TIMEOUT.value, verdict
    assert verdict.reason.startswith("it ran out of time (the game's wall-clock budget): ")
    assert "the whole 3 s wall-clock budget for the game" in verdict.reason
    assert "budget by clock.game" in verdict.reason
    assert "per decision" not in verdict.reason  # not blamed on the decision's limit


def test_the_guide_s_clock_budget_bot_passes_the_same_clock(tmp_path: Path) -> None:
    source = (ROOT / "bots" / "examples" / "clock_budget.py").read_text()
    verdict = validate(tmp_path, source)
    assert verdict.valid is True, verdict.text()
    assert "3 s wall clock per game" in verdict.text()


def test_a_sleeper_is_stopped_by_the_decision_s_wall_clock(tmp_path: Path) -> None:
    verdict = validate(tmp_path, bot("sleeper"))
    assert verdict.kind == FaultKind.TIMEOUT.value, verdict
    assert verdict.reason.startswith("it ran out of time (the wall-clock limit of one decision)")
    assert "no reply within 0.35 s of wall clock" in verdict.reason
    assert "the 0.05 s decision + the 0.2 s left in the bank + 0.1 s" in verdict.reason
    assert "think less per decision" in verdict.reason


def test_an_overdrawn_bank_is_named_with_its_figures(tmp_path: Path) -> None:
    verdict = validate(tmp_path, bot("overdraws"))
    assert verdict.kind == FaultKind.TIMEOUT.value, verdict
    # caught mid-decision (its CPU reached the decision's plus the bank left) or after
    # its reply (the overage overdrew the bank): the same clock, either way
    assert verdict.reason.startswith("it ran out of time (the time bank): "), verdict.reason
    assert "0.05 s" in verdict.reason and "time bank" in verdict.reason
    assert "think less per decision (clock.decision)" in verdict.reason


@pytest.mark.parametrize("clock", list(TimeoutClock))
def test_each_clock_has_words(clock: TimeoutClock) -> None:
    assert clock.label and clock.value


def test_a_fault_stores_its_clock_beside_the_old_fields() -> None:
    from arena_runner.result import Fault

    fault = Fault(1, 7, FaultKind.TIMEOUT, "m", clock=TimeoutClock.GAME)
    assert fault.to_dict() == {
        "seat": 1, "step": 7, "kind": "timeout", "message": "m", "clock": "game"
    }  # fmt: skip
    assert "clock" not in Fault(1, 7, FaultKind.ERROR, "m").to_dict()
