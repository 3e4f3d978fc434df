"""Determinization: a full game state consistent with one seat's observation.

Search bots cannot see opponents' cards or the deck. :func:`determinize` samples the
hidden parts (opponents' resource cards and development cards, the deck's composition)
uniformly from the cards unaccounted for, and copies everything public, so a bot can
search over ``Game`` copies without ever seeing the real hidden state.
"""

from __future__ import annotations

import random

from engine.errors import EngineError
from engine.game import Game
from engine.observation import Observation
from engine.phases import Phase
from engine.rng import SECRET_BYTES, GameChance
from engine.rules.derived import rebuild_derived
from engine.state import GameState
from engine.types import BANK_PER_RESOURCE, DEV_DECK


def _deal(pool: list[int], counts: dict[int, int], rng: random.Random) -> dict[int, list[int]]:
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


def determinize(obs: Observation, rng: random.Random) -> Game:
    """A :class:`Game` whose public facts equal ``obs`` and whose hidden facts are sampled.

    Its chance streams are keyed from ``rng`` (the bot's own generator): its future dice,
    cards and steals are samples, unrelated to the real game's.
    """
    if obs.seat is None or obs.hand is None or obs.dev_cards is None:
        raise EngineError("determinize needs a seat's observation, not a spectator's")
    me, n = obs.seat, len(obs.resource_counts)
    secret = rng.getrandbits(8 * SECRET_BYTES).to_bytes(SECRET_BYTES, "big")
    s = GameState.new(obs.config, obs.board, GameChance.from_secret(secret))
    s.node_owner = list(obs.node_owner)
    s.node_kind = list(obs.node_kind)
    s.edge_owner = list(obs.edge_owner)
    rebuild_derived(s)

    unseen = [BANK_PER_RESOURCE - obs.bank[r] - obs.hand[r] for r in range(5)]
    others = {p: obs.resource_counts[p] for p in range(n) if p != me}
    hands = _deal(unseen, others, rng)
    s.hands = [list(obs.hand) if p == me else hands[p] for p in range(n)]
    s.bank = list(obs.bank)

    unseen_devs = [DEV_DECK[k] - obs.dev_cards[k] - obs.played_dev_cards[k] for k in range(5)]
    devs = _deal(unseen_devs, {p: obs.dev_counts[p] for p in range(n) if p != me}, rng)
    s.devs = [list(obs.dev_cards) if p == me else devs[p] for p in range(n)]
    s.deck = unseen_devs
    if sum(s.deck) != obs.deck_size:
        raise EngineError("observation is inconsistent: deck size does not add up")
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
    return Game(s, seed=-1)
