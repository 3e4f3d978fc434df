"""The legal-action list agrees with :meth:`Game.apply`: every listed action applies, and
every interned action not listed is rejected without touching the state."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import actions as A
from engine.config import BoardSetup, RulesConfig
from engine.errors import IllegalActionError
from engine.game import Game
from engine.phases import Phase
from engine.state import GameState
from engine.types import Bag
from tests.support.invariants import check_invariants, choose_action, random_bags, snapshot

INTERNED: tuple[A.Action, ...] = (
    A.ROLL,
    A.END_TURN,
    A.BUY_DEV,
    A.KNIGHT,
    A.ROAD_BUILDING,
    A.ACCEPT,
    A.REJECT,
    A.CANCEL,
    *A.ROADS,
    *A.SETTLEMENTS,
    *A.CITIES,
    *A.DISCARDS,
    *A.MONOPOLIES,
    *(a for row in A.PLENTY for a in row),
    *(a for row in A.MARITIME for a in row),
    *A.CONFIRMS,
    *(a for row in A.ROBBER for a in row),
    *(a for row in A.OFFERS_ONE_FOR_ONE for a in row),
)
"""Every action in the interned tables of ``engine.actions``."""

RARE_PHASES = frozenset(
    {
        Phase.DISCARD,
        Phase.MOVE_ROBBER,
        Phase.ROAD_BUILDING,
        Phase.TRADE_RESPONSE,
        Phase.TRADE_CONFIRM,
        Phase.GAME_OVER,
        Phase.SETUP_SETTLEMENT,
        Phase.SETUP_ROAD,
    }
)
CONFIGS = st.builds(
    RulesConfig,
    players=st.sampled_from((3, 4)),
    domestic_trade=st.booleans(),
    friendly_robber=st.booleans(),
    strict_trade_then_build=st.booleans(),
    board=st.sampled_from(tuple(BoardSetup)),
    discard_limit=st.sampled_from((7, 3)),
    max_trade_offers_per_turn=st.sampled_from((3, 1)),
)


def reachable_states(seed: int, config: RulesConfig, *, limit: int, rate: float) -> Iterator[Game]:
    """Walk a random game to its end, yielding up to ``limit`` states on the way (each
    with probability ``rate``, and the first visits to a rarely seen phase), then the
    final state."""
    game = Game.new(config, seed=seed)
    rng = random.Random(seed)
    seen: dict[Phase, int] = {}
    yielded = 0
    while not game.is_over:
        phase = game.phase
        if yielded < limit and (
            rng.random() < rate or (phase in RARE_PHASES and seen.get(phase, 0) < 3)
        ):
            seen[phase] = seen.get(phase, 0) + 1
            yielded += 1
            yield game
        game.apply(choose_action(game, rng, trade_rate=0.15, build_bias=0.3))
    yield game


def offer_ok(s: GameState, give: Bag, get: Bag) -> bool:
    """Independent rule for a domestic offer by the player on turn."""
    p = s.current
    return (
        s.phase is Phase.MAIN
        and s.config.domestic_trade
        and s.offers_made < s.config.max_trade_offers_per_turn
        and not (s.config.strict_trade_then_build and s.built)
        and any(sum(s.hands[q]) for q in range(s.n) if q != p)
        and _bags_ok(s.hands[p], give, get)
    )


def counter_ok(s: GameState, give: Bag, get: Bag) -> bool:
    """Independent rule for a counter-offer by the responder deciding now."""
    return s.phase is Phase.TRADE_RESPONSE and _bags_ok(s.hands[s.decider], give, get)


def _bags_ok(hand: list[int], give: Bag, get: Bag) -> bool:
    return (
        min(give) >= 0
        and min(get) >= 0
        and any(give)
        and any(get)
        and not any(give[r] and get[r] for r in range(5))
        and all(hand[r] >= give[r] for r in range(5))
        and sum(get) <= 95
    )


def _random_trade(s: GameState, rng: random.Random) -> tuple[Bag, Bag]:
    """Mostly well-formed trades for the decider, sometimes broken in one way."""
    bags = random_bags(s.hands[s.decider], rng)
    give, get = bags if bags else ((1, 0, 0, 0, 0), (0, 1, 0, 0, 0))
    flaw = rng.randrange(6)
    if flaw == 0:  # like for like
        r = rng.randrange(5)
        give = tuple(c + (i == r) for i, c in enumerate(give))  # type: ignore[assignment]
        get = tuple(c + (i == r) for i, c in enumerate(get))  # type: ignore[assignment]
    elif flaw == 1:  # a gift
        get = (0, 0, 0, 0, 0)
    elif flaw == 2:  # cards not held
        r = rng.randrange(5)
        give = tuple(c + (i == r) * 20 for i, c in enumerate(give))  # type: ignore[assignment]
    return give, get


def check_state(game: Game, rng: random.Random) -> None:
    """All listed actions apply; unlisted interned ones and bad trades are rejected with
    the state, the random generator and the log unchanged."""
    s = game.state
    legal = list(game.legal_actions())
    where = f"seed {game.seed}, step {len(s.steps)}, phase {s.phase.label}"
    assert len(set(legal)) == len(legal), f"{where}: duplicate legal actions {legal}"
    assert bool(legal) != game.is_over, f"{where}: legal list {legal}"
    for action in legal:
        twin = game.copy()
        try:
            twin.apply(action)
            check_invariants(twin)
        except Exception as exc:
            raise AssertionError(f"{where}: legal {action} failed: {exc!r}") from exc

    listed = set(legal)
    # One-for-one offers are listed exactly when the independent rule allows them.
    for row in A.OFFERS_ONE_FOR_ONE:
        for offer in row:
            if offer.give != offer.get:
                assert (offer in listed) == offer_ok(s, offer.give, offer.get), (
                    f"{where}: {offer} listed={offer in listed}"
                )

    rejects = [action for action in INTERNED if action not in listed]
    # Multi-card offers and counters: accepted exactly when the independent rule says.
    for _ in range(6):
        give, get = _random_trade(s, rng)
        for action, ok in (
            (A.ProposeTrade(give, get), offer_ok(s, give, get)),
            (A.CounterTrade(give, get), counter_ok(s, give, get)),
        ):
            if ok:
                twin = game.copy()
                twin.apply(action)
                check_invariants(twin)
            else:
                rejects.append(action)

    # Fast path: all rejections on one copy, compared once; on any surprise, redo each
    # rejection on a fresh copy to name the culprit.
    probe = game.copy()
    for action in rejects:
        try:
            probe.apply(action)
        except IllegalActionError:
            continue
        _diagnose(game, rejects, where)
        raise AssertionError(f"{where}: unlisted {action} was applied")
    if not _same(game.state, probe.state):
        _diagnose(game, rejects, where)
        raise AssertionError(f"{where}: the rejections together changed the state")


def _same(a: GameState, b: GameState) -> bool:
    """Same fields, same random generator state, same log."""
    return (
        snapshot(a) == snapshot(b)
        and a.chance.position() == b.chance.position()
        and a.steps == b.steps
    )


def _diagnose(game: Game, rejects: list[A.Action], where: str) -> None:
    """Raise for the first action whose rejection (or acceptance) changes a fresh copy."""
    for action in rejects:
        probe = game.copy()
        try:
            probe.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{where}: unlisted {action} was applied")
        if not _same(game.state, probe.state):
            before, after = snapshot(game.state), snapshot(probe.state)
            fields = sorted(k for k in before if before[k] != after[k])
            raise AssertionError(
                f"{where}: rejecting {action} changed {fields or 'the rng or the log'}"
            )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), config=CONFIGS)
def test_legal_list_matches_apply(seed: int, config: RulesConfig) -> None:
    """Random reachable states of random games under random rules."""
    rng = random.Random(seed ^ 0xC0FFEE)
    for game in reachable_states(seed, config, limit=12, rate=0.01):
        check_state(game, rng)


@pytest.mark.slow
def test_legal_list_matches_apply_many_seeds() -> None:
    """A deterministic sweep: 40 games, about 15 states each, all phases visited."""
    phases: set[Phase] = set()
    for seed in range(40):
        config = RulesConfig(
            players=3 + seed % 2,
            friendly_robber=seed % 3 == 0,
            strict_trade_then_build=seed % 5 == 0,
            domestic_trade=seed % 7 != 0,
        )
        rng = random.Random(seed)
        for game in reachable_states(seed, config, limit=15, rate=0.005):
            phases.add(game.phase)
            check_state(game, rng)
    assert phases == set(Phase), f"phases never reached: {set(Phase) - phases}"
