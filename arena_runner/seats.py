"""One seat during a match: its driver, time bank, strikes, and the autopilot that takes
over a forfeited seat."""

from __future__ import annotations

from dataclasses import dataclass, field

from arena_runner.drivers import InProcessDriver, PlayerFactory, SeatDriver
from arena_runner.result import Fault, FaultKind, Forfeit, SeatStats
from arena_runner.timeouts import TimeoutClock, bank_overdrawn, decision_cost, game_spent
from engine import Action, BoardLayout, Clock, Observation, RulesConfig

DEFAULT_MAX_STRIKES = 3
OFFTURN_ALLOWANCE = 0.001
"""CPU seconds of a bot's own off-turn CPU (see ``SeatDriver.last_offturn_cpu``: what it
used while frozen, or between decisions where freezing is off) not charged: the kernel's
freeze and thaw of it. The moments between a reply and its freeze (the runtime finishing
its reply) are never charged at all."""


@dataclass
class Seat:
    """Book-keeping for one seat; ``driver`` is the bot, ``autopilot`` its replacement."""

    index: int
    driver: SeatDriver
    bank: float
    stats: SeatStats = field(default_factory=SeatStats)
    faults: list[Fault] = field(default_factory=list)
    forfeit: Forfeit | None = None
    autopilot: InProcessDriver | None = None
    platform_failed: bool = False
    wall_left: float = float("inf")
    """Wall-clock seconds the bot may still spend deciding in this game."""
    budget: float | None = None
    """The seat's whole wall-clock budget for the game (what ``wall_left`` started at)."""

    def __post_init__(self) -> None:
        self.stats.bank_left = max(0.0, self.bank)  # a seat that never decides keeps it all

    @property
    def strikes(self) -> int:
        return sum(f.kind.is_bot_fault for f in self.faults)

    @property
    def playing(self) -> bool:
        """True while the bot itself decides (not forfeited, no platform failure)."""
        return self.forfeit is None and not self.platform_failed

    def record(self, fault: Fault, max_strikes: int) -> None:
        """Add a fault; forfeit on a dead process, a person away too long or the
        ``max_strikes``-th strike."""
        self.faults.append(fault)
        if fault.kind is FaultKind.PLATFORM:
            self.platform_failed = True
        elif fault.clock is TimeoutClock.AWAY:
            self._forfeit(fault.step, fault.message)
        elif not self.driver.alive:
            self._forfeit(fault.step, f"its process is gone ({fault.kind.value}: {fault.message})")
        elif self.strikes >= max_strikes:
            self._forfeit(fault.step, f"{self.strikes} strikes (last: {fault.kind.value})")

    def charge(self, clock: Clock, cpu: float, offturn: float = 0.0, wall: float = 0.0) -> bool:
        """Take the decision's cost beyond its budget (its CPU, or its ``wall`` clock less
        the slack when more: :func:`~arena_runner.timeouts.decision_cost`) and the bot's
        own off-turn CPU beyond :data:`OFFTURN_ALLOWANCE` (a frozen bot uses none; one
        that found a way to run anyway pays for it) out of the bank; False once
        overdrawn. A bank of 0 stays 0 for a bot within its decisions' budgets."""
        self.stats.cpu += cpu
        self.stats.offturn_cpu += offturn
        overage = max(0.0, decision_cost(cpu, wall) - clock.decision)
        self.bank -= overage + max(0.0, offturn - OFFTURN_ALLOWANCE)
        self.stats.bank_left = max(0.0, self.bank)
        return self.bank >= 0.0

    def bank_exhausted(
        self, clock: Clock, cpu: float, step: int, offturn: float = 0.0, wall: float = 0.0
    ) -> None:
        """Record the overdrawn bank: a TIMEOUT strike and a forfeit."""
        message = bank_overdrawn(cpu, clock.decision, offturn, wall)
        fault = Fault(self.index, step, FaultKind.TIMEOUT, message, clock=TimeoutClock.BANK)
        self.faults.append(fault)
        self._forfeit(step, fault.message)

    def wall_exhausted(self, step: int) -> None:
        """Record the spent per-game wall-clock budget: a TIMEOUT strike and a forfeit."""
        message = game_spent(self.budget)
        fault = Fault(self.index, step, FaultKind.TIMEOUT, message, clock=TimeoutClock.GAME)
        self.faults.append(fault)
        self._forfeit(step, fault.message)

    def _forfeit(self, step: int, reason: str) -> None:
        if self.forfeit is None:
            self.forfeit = Forfeit(self.index, step, reason)
            self.driver.pause()

    def take_over(
        self,
        factory: PlayerFactory,
        config: RulesConfig,
        layout: BoardLayout,
        seed: int,
        observation: Observation,
    ) -> None:
        """Start the trusted autopilot for this seat (mid-game)."""
        pilot = InProcessDriver(factory, "autopilot")
        if pilot.start(self.index, config, layout, seed, observation) is None:
            self.autopilot = pilot

    def pilot_act(self, observation: Observation, clock: Clock) -> Action | None:
        """The autopilot's move, or None (then a safe default) if it failed."""
        self.stats.autopilot += 1
        if self.autopilot is None:
            return None
        reply = self.autopilot.act(observation, clock)
        return reply if isinstance(reply, Action) else None
