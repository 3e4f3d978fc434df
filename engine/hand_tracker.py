"""The opponents' resource cards, followed through the public history.

Almost every card's kind is public when it moves: what a roll pays (the board, the
buildings and the dice), set-up cards, builds and purchases (their costs), maritime and
domestic trades, discards, Year of Plenty. Only a steal between two other seats hides a
card's kind, and a Monopoly takes however many of those hidden cards were of its kind.

:class:`HandTracker` replays a seat's history on a scratch :class:`GameState` (so the
rules that decide a flow, such as the bank-shortage rule or a set-up settlement's
cards, are the engine's own) and follows the hands as particles: assignments of every
hand, one while all is known, many once hidden steals split the possibilities (each
draws the stolen card uniformly from its victim's hand in that particle, as the real
robber does; public flows a particle could not have paid weed it out).
:meth:`HandTracker.sample` picks a particle and reconciles it with the observation
(:func:`reconcile`): the seats' card counts, the cards unaccounted for and what a
pending trade proves (:func:`engine.determinize.known_holdings`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine import actions as A
from engine.errors import EngineError
from engine.observation import Observation
from engine.rng import SECRET_BYTES, GameChance
from engine.rules.apply import apply_action
from engine.state import GameState, Step
from engine.types import BANK_PER_RESOURCE

Hands = list[list[int]]

_FLOWS: Final = (
    A.RollDice,
    A.BuildRoad,
    A.BuildSettlement,
    A.BuildCity,
    A.BuyDevCard,
    A.Discard,
    A.PlayYearOfPlenty,
    A.MaritimeTrade,
    A.ConfirmTrade,
)
"""Actions whose card flows are public and fixed by the state (kinds and amounts)."""
PARTICLES: Final = 64
"""Hand assignments kept once hidden steals make the hands uncertain."""
_PLENTY_OF_DEVS: Final = [1 << 20] * 5
"""The scratch state's deck: other seats' draws are hidden, so any kind may be forced."""


class _Flow:
    """Public flows summed over a run of steps, with each seat's lowest point per kind
    on the way: a hand that starts the run with fewer cards than ``-low`` of a kind
    could not have paid them."""

    __slots__ = ("low", "total")

    def __init__(self, n: int) -> None:
        self.total: Hands = [[0] * 5 for _ in range(n)]
        self.low: Hands = [[0] * 5 for _ in range(n)]

    def add(self, before: Hands, after: Hands) -> None:
        for was, now, total, low in zip(before, after, self.total, self.low, strict=True):
            for r in range(5):
                if now[r] != was[r]:
                    total[r] += now[r] - was[r]
                    if total[r] < low[r]:
                        low[r] = total[r]

    def is_empty(self) -> bool:
        return not any(any(row) for row in self.total) and not any(any(row) for row in self.low)

    def shortfall(self, hands: Hands) -> int:
        """Cards ``hands`` would have lacked to make these flows (0: possible)."""
        short = 0
        for hand, low in zip(hands, self.low, strict=True):
            for r in range(5):
                if hand[r] + low[r] < 0:
                    short -= hand[r] + low[r]
        return short

    def applied(self, hands: Hands) -> Hands:
        return [
            [h + t for h, t in zip(hand, total, strict=True)]
            for hand, total in zip(hands, self.total, strict=True)
        ]


class HandTracker:
    """Every seat's resource cards as one seat (``obs.seat``) can infer them.

    The hands are kept as a set of particles (a sequential Monte Carlo filter): one
    while every card is known, up to :data:`PARTICLES` once a hidden steal splits the
    possibilities. Each hidden steal draws its card in every particle from that
    particle's victim; each run of public flows keeps only the particles that could
    have paid it (all of them, if none could) and draws the rest again from those.
    Feed it the seat's observations in order (:meth:`update`).
    """

    def __init__(self, obs: Observation, rng: random.Random) -> None:
        if obs.seat is None:
            raise EngineError("a hand tracker follows a seat, not a spectator")
        self.seat = obs.seat
        self.n = len(obs.resource_counts)
        chance = GameChance.from_secret(bytes(SECRET_BYTES))
        self._state = GameState.new(obs.config, obs.board, chance)
        self._state.deck = list(_PLENTY_OF_DEVS)
        self._rng = rng
        self._particles: list[Hands] = [[[0] * 5 for _ in range(self.n)]]
        self._flow = _Flow(self.n)
        self._read = 0
        self._last: Step | None = None
        self._failed: str | None = None
        self._fits: tuple[int, list[Hands]] | None = None
        self.hidden_steals = 0
        """Steals whose card this seat did not see (0: every hand is known exactly)."""

    # --- reading the history ----------------------------------------------------------

    def continues(self, history: Sequence[Step]) -> bool:
        """Whether ``history`` extends what this tracker has read."""
        if len(history) < self._read:
            return False
        return self._read == 0 or history[self._read - 1] == self._last

    def update(self, history: Sequence[Step]) -> None:
        """Read the steps of ``history`` not read yet (:class:`EngineError` if it does not
        continue what was read, or has a step the tracker cannot follow)."""
        if self._failed is not None:
            raise EngineError(self._failed)
        if not self.continues(history):
            raise EngineError("this history does not continue the one the tracker read")
        for index in range(self._read, len(history)):
            try:
                self._read_step(history[index])
            except Exception as exc:  # a step the scratch state cannot take: stop here
                self._failed = f"history step {index} cannot be followed: {exc!r}"
                raise EngineError(self._failed) from exc
        if len(history) > self._read:
            self._last = history[len(history) - 1]
        self._read = len(history)

    def _read_step(self, step: Step) -> None:
        seat, action, outcome = step
        s = self._state
        s.decider = seat
        kind = type(action)
        if kind is A.MoveRobber:
            self._robber(seat, action, outcome)
        elif kind is A.PlayMonopoly:
            self._close_flow()
            self._monopoly(seat, action.resource)
            apply_action(s, action)
        elif kind in _FLOWS:
            before = [list(hand) for hand in s.hands]
            forced = 0 if kind is A.BuyDevCard and outcome is None else outcome
            apply_action(s, action, forced)
            self._flow.add(before, s.hands)
        else:
            apply_action(s, action)

    def _robber(self, seat: int, action: A.MoveRobber, outcome: object) -> None:
        """Move the scratch robber and follow the steal: a public flow if this seat saw
        its card, otherwise drawn in each particle. (The scratch hands then move some
        card the victim holds there, so that their sizes, which decide discards, stay
        right.)"""
        s, victim = self._state, action.victim
        apply_action(s, A.MoveRobber(action.hex, None))
        if victim is None:
            return
        hands = s.hands
        if isinstance(outcome, int):
            before = [list(hand) for hand in hands]
            hands[victim][outcome] -= 1
            hands[seat][outcome] += 1
            self._flow.add(before, hands)
            return
        self._close_flow()
        self._steal(seat, victim)
        card = max(range(5), key=hands[victim].__getitem__)
        hands[victim][card] -= 1
        hands[seat][card] += 1

    # --- the particles ----------------------------------------------------------------

    def _close_flow(self) -> None:
        """Move every particle past the public flows read since the last hidden event."""
        flow = self._flow
        if flow.is_empty():
            return
        self._flow = _Flow(self.n)
        short = [flow.shortfall(hands) for hands in self._particles]
        least = min(short)
        kept = [
            flow.applied(h) for h, gap in zip(self._particles, short, strict=True) if gap == least
        ]
        self._particles = self._refill(kept)

    def _refill(self, kept: list[Hands]) -> list[Hands]:
        if len(kept) == 1 or len(kept) >= PARTICLES:
            return kept
        extra = self._rng.choices(kept, k=PARTICLES - len(kept))
        return kept + [[list(hand) for hand in hands] for hands in extra]

    def _steal(self, thief: int, victim: int) -> None:
        self.hidden_steals += 1
        particles = self._particles
        if len(particles) < PARTICLES:
            particles = (
                self._refill(particles)
                if len(particles) > 1
                else [[list(hand) for hand in particles[0]] for _ in range(PARTICLES)]
            )
        kept = []
        choices = self._rng.choices
        for hands in particles:
            held = [max(c, 0) for c in hands[victim]]
            if sum(held):
                card = choices(range(5), held)[0]
                hands[victim][card] -= 1
                hands[thief][card] += 1
                kept.append(hands)
        self._particles = self._refill(kept) if kept else particles  # the victim had a card

    def _monopoly(self, seat: int, resource: int) -> None:
        for hands in self._particles:
            taker = hands[seat]
            for p, hand in enumerate(hands):
                if p != seat and hand[resource] > 0:
                    taker[resource] += hand[resource]
                    hand[resource] = 0

    # --- sampling ---------------------------------------------------------------------

    def _fitting(self, counts: Sequence[int]) -> list[Hands]:
        """The particles brought up to now, best first kept: those that could have paid
        every flow and hold each seat's card count; failing that, the closest."""
        if self._fits is not None and self._fits[0] == self._read:
            return self._fits[1]
        flow = self._flow

        def misfit(hands: Hands) -> int:
            now = flow.applied(hands)
            off = sum(abs(sum(now[p]) - counts[p]) for p in range(self.n) if p != self.seat)
            return flow.shortfall(hands) + off

        scored = [(misfit(hands), hands) for hands in self._particles]
        least = min(score for score, _ in scored)
        fits = [flow.applied(hands) for score, hands in scored if score == least]
        self._fits = (self._read, fits)
        return fits

    def sample(self, obs: Observation, known: dict[int, list[int]], rng: random.Random) -> Hands:
        """Every seat's hand: this seat's as observed, the others' drawn from the
        particles and reconciled with ``obs`` and ``known`` (cards a seat is proven to
        hold). Raises :class:`EngineError` if the history and ``obs`` disagree."""
        if obs.seat != self.seat or obs.hand is None or list(obs.bank) != self._state.bank:
            raise EngineError("the tracked history does not lead to this observation")
        fits = self._fitting(obs.resource_counts)
        hands = [list(hand) for hand in (fits[0] if len(fits) == 1 else rng.choice(fits))]
        hands[self.seat] = list(obs.hand)
        return reconcile(hands, obs, known, rng)


def deal(pool: list[int], counts: dict[int, int], rng: random.Random) -> dict[int, list[int]]:
    """Deal ``counts[seat]`` items to each seat from the multiset ``pool`` (counts per
    kind); return each seat's counts per kind and leave the rest in ``pool``."""
    items = [kind for kind, n in enumerate(pool) for _ in range(n)]
    rng.shuffle(items)
    dealt: dict[int, list[int]] = {}
    for seat, count in counts.items():
        if count > len(items):
            raise EngineError("observation is inconsistent: more hidden cards than exist")
        hand = [0] * len(pool)
        for kind in items[:count]:
            hand[kind] += 1
            pool[kind] -= 1
        del items[:count]
        dealt[seat] = hand
    return dealt


def _take_one(hand: list[int], floor: list[int], kind: int | None, rng: random.Random) -> int:
    """Remove one card from ``hand`` above ``floor`` (of ``kind``, or of a kind drawn in
    proportion to the cards above the floor); return its kind."""
    if kind is None:
        spare = [max(h - f, 0) for h, f in zip(hand, floor, strict=True)]
        if not sum(spare):
            raise EngineError("observation is inconsistent: no card can be taken")
        kind = rng.choices(range(5), spare)[0]
    hand[kind] -= 1
    return kind


def reconcile(
    hands: Hands, obs: Observation, known: dict[int, list[int]], rng: random.Random
) -> Hands:
    """Fit drawn hands to what ``obs`` says for sure, changing as few cards as it can:
    each seat holds at least its ``known`` cards and exactly its card count, and every
    kind's cards add up to the bank's complement. Cards a draw got wrong (a negative
    count, a seat or a kind over its total) are taken back at random and the shortfall
    dealt from the cards left unaccounted for. Raises :class:`EngineError` if no
    assignment fits."""
    me = obs.seat
    counts = obs.resource_counts
    others = [p for p in range(len(hands)) if p != me]
    for p in others:
        hands[p] = [max(h, k) for h, k in zip(hands[p], known[p], strict=True)]
        while sum(hands[p]) > counts[p]:
            _take_one(hands[p], known[p], None, rng)
    left = [BANK_PER_RESOURCE - obs.bank[r] - sum(hand[r] for hand in hands) for r in range(5)]
    for r in range(5):
        while left[r] < 0:
            holders = [p for p in others if hands[p][r] > known[p][r]]
            if not holders:
                raise EngineError("observation is inconsistent: more cards than exist")
            weights = [hands[p][r] - known[p][r] for p in holders]
            seat = rng.choices(holders, weights)[0]
            _take_one(hands[seat], known[seat], r, rng)
            left[r] += 1
    dealt = deal(left, {p: counts[p] - sum(hands[p]) for p in others}, rng)
    for p in others:
        hands[p] = [h + d for h, d in zip(hands[p], dealt[p], strict=True)]
    return hands
