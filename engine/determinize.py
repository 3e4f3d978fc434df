"""Determinization: a full game state consistent with one seat's observation.

Search bots cannot see opponents' cards or the deck. :func:`determinize` samples the
hidden parts (opponents' resource cards and development cards, the deck's composition)
from what the seat knows, and copies everything public, so a bot can search over
``Game`` copies without ever seeing the real hidden state. The opponents' resource cards
are followed through the public history (:class:`engine.hand_tracker.HandTracker`: only
a steal between two other seats hides a card's kind); what a pending trade proves is
kept (:func:`known_holdings`). Development cards and the deck are dealt uniformly from
the cards unaccounted for.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Final

from engine.errors import EngineError
from engine.game import Game
from engine.hand_tracker import HandTracker, deal
from engine.observation import Observation
from engine.phases import Phase
from engine.rng import SECRET_BYTES, GameChance
from engine.rules.derived import rebuild_derived
from engine.state import GameState, Step
from engine.types import BANK_PER_RESOURCE, DEV_DECK


def known_holdings(obs: Observation) -> dict[int, list[int]]:
    """Cards other seats are known to hold, per kind: during a domestic trade the
    proposer holds what it offers, and each seat that accepted (or countered) holds
    what it would give; only such a seat may accept, so a sample must respect it."""
    me, n = obs.seat, len(obs.resource_counts)
    known = {p: [0] * 5 for p in range(n) if p != me}
    if obs.offer is None:
        return known
    give, get = obs.offer
    holders = [(obs.current, give)]
    for seat, answer in enumerate(obs.responses):
        if answer == "accept":
            holders.append((seat, get))
        elif isinstance(answer, (tuple, list)):
            holders.append((seat, answer[0]))
    for seat, cards in holders:
        if seat in known:
            known[seat] = [max(a, b) for a, b in zip(known[seat], cards, strict=True)]
    return known


TRACK_HANDS = True
"""Follow the opponents' cards through the history (False: deal them uniformly from
the cards unaccounted for, as before; kept for measuring the difference)."""
_TRACKERS_KEPT: Final = 8
_trackers: OrderedDict[tuple[int, int], tuple[list[Step], HandTracker]] = OrderedDict()
"""Trackers by (history list, seat), so that each decision reads only the new steps.
Each entry holds its list, so the list's ``id`` cannot be reused while it is kept."""


def hand_tracker(obs: Observation, rng: random.Random) -> HandTracker:
    """The tracker of ``obs``'s seat in ``obs``'s game, brought up to ``obs`` (a new one
    draws its own generator's seed from ``rng``)."""
    assert obs.seat is not None
    steps = obs._steps
    key = (id(steps), obs.seat)
    history = obs.history
    kept = _trackers.get(key)
    if kept is not None and kept[0] is steps and kept[1].continues(history):
        tracker = kept[1]
        _trackers.move_to_end(key)
    else:
        tracker = HandTracker(obs, random.Random(rng.getrandbits(64)))
        _trackers[key] = (steps, tracker)
        while len(_trackers) > _TRACKERS_KEPT:
            _trackers.popitem(last=False)
    tracker.update(history)
    return tracker


def _deal_hands(obs: Observation, me: int, rng: random.Random) -> list[list[int]]:
    """Every seat's resource hand: mine as observed, the others' followed through the
    history (:func:`hand_tracker`), or, if that fails (a history that does not start
    at the game's start), dealt uniformly from the cards unaccounted for."""
    if TRACK_HANDS:
        try:
            return hand_tracker(obs, rng).sample(obs, known_holdings(obs), rng)
        except EngineError:
            pass
    return _deal_uniformly(obs, me, rng)


def _deal_uniformly(obs: Observation, me: int, rng: random.Random) -> list[list[int]]:
    """Every seat's resource hand: mine as observed; the others' known cards, and the
    rest of each count dealt from the cards unaccounted for."""
    n, mine = len(obs.resource_counts), obs.hand
    assert mine is not None
    known = known_holdings(obs)
    unseen = [BANK_PER_RESOURCE - obs.bank[r] - mine[r] for r in range(5)]
    for cards in known.values():
        unseen = [u - c for u, c in zip(unseen, cards, strict=True)]
    if min(unseen) < 0 or any(sum(known[p]) > obs.resource_counts[p] for p in known):
        raise EngineError("observation is inconsistent: known cards exceed the hidden ones")
    rest = {p: obs.resource_counts[p] - sum(known[p]) for p in known}
    dealt = deal(unseen, rest, rng)
    hands = []
    for p in range(n):
        if p == me:
            hands.append(list(mine))
        else:
            hands.append([d + k for d, k in zip(dealt[p], known[p], strict=True)])
    return hands


def _secret(rng: random.Random) -> bytes:
    return rng.getrandbits(8 * SECRET_BYTES).to_bytes(SECRET_BYTES, "big")


def _deal_hidden(s: GameState, obs: Observation, me: int, rng: random.Random) -> None:
    """Deal ``s``'s hidden cards afresh: the others' resource and development cards
    and the deck's composition (see :func:`determinize`)."""
    assert obs.dev_cards is not None
    n = len(obs.resource_counts)
    s.hands = _deal_hands(obs, me, rng)
    unseen_devs = [DEV_DECK[k] - obs.dev_cards[k] - obs.played_dev_cards[k] for k in range(5)]
    devs = deal(unseen_devs, {p: obs.dev_counts[p] for p in range(n) if p != me}, rng)
    s.devs = [list(obs.dev_cards) if p == me else devs[p] for p in range(n)]
    s.deck = unseen_devs
    if sum(s.deck) != obs.deck_size:
        raise EngineError("observation is inconsistent: deck size does not add up")
    s.public_view = None


def redeal(sample: Game, obs: Observation, rng: random.Random) -> Game:
    """Another determinization of ``obs``, made from an earlier one (``sample``, not
    changed) much faster than :func:`determinize`: the public state and its derived
    caches are copied, the hidden cards dealt and the chance streams keyed afresh."""
    if obs.seat is None or obs.hand is None or obs.dev_cards is None:
        raise EngineError("redeal needs a seat's observation, not a spectator's")
    game = sample.copy()
    game.state.chance = GameChance.from_secret(_secret(rng))
    _deal_hidden(game.state, obs, obs.seat, rng)
    return game


def determinize(obs: Observation, rng: random.Random) -> Game:
    """A :class:`Game` whose public facts equal ``obs`` and whose hidden facts are sampled.

    Its chance streams are keyed from ``rng`` (the bot's own generator): its future dice,
    cards and steals are samples, unrelated to the real game's.
    """
    if obs.seat is None or obs.hand is None or obs.dev_cards is None:
        raise EngineError("determinize needs a seat's observation, not a spectator's")
    me = obs.seat
    s = GameState.new(obs.config, obs.board, GameChance.from_secret(_secret(rng)))
    s.node_owner = list(obs.node_owner)
    s.node_kind = list(obs.node_kind)
    s.edge_owner = list(obs.edge_owner)
    rebuild_derived(s)
    s.bank = list(obs.bank)
    _deal_hidden(s, obs, me, rng)
    s.devs_new = list(obs.dev_cards_new) if obs.current == me and obs.dev_cards_new else [0] * 5

    s.robber = obs.robber
    s.knights = list(obs.knights)
    s.played_devs = list(obs.played_dev_cards)
    s.roads_left = list(obs.roads_left)
    s.settlements_left = list(obs.settlements_left)
    s.cities_left = list(obs.cities_left)
    s.public_vp = list(obs.visible_points)
    s.longest_road = -1 if obs.longest_road is None else obs.longest_road
    s.largest_army = -1 if obs.largest_army is None else obs.largest_army
    s.turn, s.current, s.decider = obs.turn, obs.current, obs.decider
    s.phase = Phase(obs.phase)
    s.setup_index, s.setup_node = obs.setup_index, obs.setup_node
    s.dice, s.rolled, s.dev_played, s.built = obs.dice, obs.rolled, obs.dev_played, obs.built
    s.to_discard = list(obs.to_discard)
    s.resume_phase, s.free_roads = obs.resume_phase, obs.free_roads
    s.offers_made, s.offer, s.responses = obs.offers_made, obs.offer, list(obs.responses)
    s.public_view = None
    return Game(s, seed=-1)
