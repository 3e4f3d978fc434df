"""An optional Gymnasium environment: one learning seat against in-process bots.

Needs the ``gym`` extra (``pip install -e '.[gym]'``: gymnasium and numpy). Nothing else
in Catan Arena imports this module; the engine never depends on it.

``CatanEnv`` seats the learner (a fixed seat, ``"rotate"`` over episodes, or ``"random"``)
and fills the other seats with ordinary :class:`~bots.player.Player` bots loaded through
:func:`bots.registry.load_player_class` (default ``"random"``), run in this process.

* ``reset(seed=...)`` draws the game seed (and, for ``"random"``, the learner's seat) from
  the environment's generator, so the same seed gives the same board, dice and opponent
  choices. An explicit seed also restarts the ``"rotate"`` cycle at seat 0.
  ``options={"learner_seat": k}`` overrides the seat for one episode.
* ``step(index)`` applies the learner's action (an index of :mod:`engine.codec`), then
  lets the other seats play until the learner must decide again or the game is over.
  An index outside the space raises :class:`~engine.errors.InvalidActionError`; an index
  that is not legal now raises :class:`~engine.errors.IllegalActionError` (both are
  ``ValueError``; the game is left unchanged). Use the mask.
* ``action_masks()`` (the ``sb3-contrib`` MaskablePPO convention) and
  ``info["action_mask"]`` give a boolean vector of length ``ACTION_SPACE_SIZE``; it is all
  False once the game is over.
* Reward (``reward="win"``, the default): +1 on the step where the learner wins, 0
  otherwise (losing and truncation included). ``reward="shaped"`` adds, on every step,
  the change of the learner's own points (victory point cards included) divided by
  ``vp_to_win``, so an episode sums to ``(final - initial points) / vp_to_win`` plus the
  win bonus.
* ``terminated`` is True when someone reached ``vp_to_win``; ``truncated`` is True when
  the rules' turn cap (``RulesConfig.max_turns``) ended the game without a winner.
* ``info``: ``action_mask``, ``seat`` (the learner's), ``turn``, ``phase``; at the end
  also ``outcome`` (``Outcome.to_dict()``) and ``winner``.

Observation: ``Box(0, 1, (OBSERVATION_SIZE,), float32)``, built by
:func:`encode_observation` from the learner's :class:`~engine.observation.Observation`
only (own cards plus public state; never another seat's hand, dev cards or the deck).
Seats are *relative*: slot 0 is the learner, slot ``r`` the seat ``r`` places after it
(``(seat - learner) % players``); slot 3 is empty in 3-player games. Counts are divided
by the bound given and clipped to 1. Layout, in order (OBSERVATION_SIZE = 1528):

=================  =====  ===============================================================
block              size   content
=================  =====  ===============================================================
node_building      432    per intersection n (54) × 8: one-hot ``2 * slot + (kind - 1)``,
                          kind 1 settlement / 2 city; all 0 when empty
edge_road          288    per path e (72) × 4: one-hot owner slot
hex_terrain        114    per hex (19) × 6: hills, forest, pasture, fields, mountains, desert
hex_number         209    per hex (19) × 11: one-hot token 2..12 at ``token - 2``
                          (the desert: all 0)
robber             19     one-hot robber hex
node_harbor        324    per intersection (54) × 6: generic 3:1, then 2:1 brick, lumber,
                          wool, grain, ore
hand               5      own resources by kind / 19
dev_cards          5      own unplayed dev cards by kind (knight, road building, year of
                          plenty, monopoly, victory point) / (14, 2, 2, 2, 5)
dev_cards_new      5      of those, bought this turn / (14, 2, 2, 2, 5)
players            56     per slot (4) × 14: present, resource count / 20, dev card count
                          / 25, knights played / 14, visible points / vp_to_win, road
                          length / 15, roads left / 15, settlements left / 5, cities left
                          / 4, cards to discard / 20, holds longest road, holds largest
                          army, is on turn, is deciding
bank               5      bank resources / 19
deck_size          1      dev cards left in the deck / 25
played_dev_cards   5      dev cards played by everyone, by kind / (14, 2, 2, 2, 5)
phase              10     one-hot ``engine.phases.Phase``
resume_phase       10     one-hot phase a robber move / Road Building returns to
dice               11     one-hot last roll total 2..12 (all 0 before the first roll)
flags              3      rolled this turn, dev card played this turn, built this turn
free_roads         1      free Road Building roads left / 2
turn               1      turn / max_turns
offer              10     open domestic offer: give (5) then get (5), each / 10
offers_made        1      offers made this turn / max_trade_offers_per_turn
responses          12     per slot (4) × 3: accepted, rejected, countered
own_points         1      own total points (VP cards included) / vp_to_win
=================  =====  ===============================================================

Shipping a trained policy: a policy is an ordinary bot file that encodes its own
observation the same way and masks its output with the legal actions, e.g.
``bots/examples/masked_policy_bot.py``::

    from pathlib import Path

    import numpy as np

    from bots.gym_env import encode_observation
    from bots.player import Player
    from engine import Action, Observation, codec

    WEIGHTS = Path(__file__).with_name("policy.npz")  # saved after training


    class MaskedPolicyBot(Player):
        name = "masked-policy"

        def __init__(self, rng=None):
            super().__init__(rng)
            w = np.load(WEIGHTS)  # a small MLP: w1 (1528×H), b1, w2 (H×402), b2
            self.w1, self.b1, self.w2, self.b2 = w["w1"], w["b1"], w["w2"], w["b2"]

        def act(self, observation: Observation) -> Action:
            x = encode_observation(observation)
            logits = np.maximum(x @ self.w1 + self.b1, 0.0) @ self.w2 + self.b2
            mask = np.array(codec.legal_mask(observation.legal_actions))
            if not mask.any():  # only counter-offers etc. are legal: not in the space
                return self.rng.choice(observation.legal_actions)
            logits[~mask] = -np.inf
            return codec.decode(int(np.argmax(logits)))

It runs like any other bot (``catan-arena play bots/examples/masked_policy_bot.py
random random random``); ``codec.CODEC_VERSION`` and ``OBSERVATION_VERSION`` here tell
whether the encodings still match the ones it was trained on.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Final, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from bots.local import seeded_rng
from bots.player import Player
from bots.registry import load_player_class
from engine import Game, Observation, RulesConfig, codec
from engine.actions import NUM_EDGES, NUM_HEXES, NUM_NODES
from engine.board.layouts import BoardLayout
from engine.board.topology import standard_topology
from engine.config import PLAYER_COUNTS
from engine.errors import IllegalActionError, InvalidActionError
from engine.phases import Phase, Termination
from engine.seat_view import SeatView
from engine.types import BANK_PER_RESOURCE, DEV_DECK

OBSERVATION_VERSION: Final = 1
MAX_PLAYERS: Final = max(PLAYER_COUNTS)
PLAYER_FEATURES: Final = 14

OBSERVATION_LAYOUT: Final[tuple[tuple[str, int], ...]] = (
    ("node_building", NUM_NODES * 2 * MAX_PLAYERS),
    ("edge_road", NUM_EDGES * MAX_PLAYERS),
    ("hex_terrain", NUM_HEXES * 6),
    ("hex_number", NUM_HEXES * 11),
    ("robber", NUM_HEXES),
    ("node_harbor", NUM_NODES * 6),
    ("hand", 5),
    ("dev_cards", 5),
    ("dev_cards_new", 5),
    ("players", MAX_PLAYERS * PLAYER_FEATURES),
    ("bank", 5),
    ("deck_size", 1),
    ("played_dev_cards", 5),
    ("phase", len(Phase)),
    ("resume_phase", len(Phase)),
    ("dice", 11),
    ("flags", 3),
    ("free_roads", 1),
    ("turn", 1),
    ("offer", 10),
    ("offers_made", 1),
    ("responses", MAX_PLAYERS * 3),
    ("own_points", 1),
)
"""(block name, size) in vector order; see the module docstring."""


def _offsets() -> dict[str, slice]:
    out: dict[str, slice] = {}
    start = 0
    for name, size in OBSERVATION_LAYOUT:
        out[name] = slice(start, start + size)
        start += size
    return out


OBSERVATION_SLICES: Final[dict[str, slice]] = _offsets()
OBSERVATION_SIZE: Final = sum(size for _, size in OBSERVATION_LAYOUT)

_O = {name: s.start for name, s in OBSERVATION_SLICES.items()}
_DEV_DECK = np.array(DEV_DECK, dtype=np.float32)


@cache
def _board_block(layout: BoardLayout) -> np.ndarray:
    """The static part (terrain, numbers, harbors) of one board layout."""
    topo = standard_topology()
    size = _O["robber"] - _O["hex_terrain"]
    block = np.zeros(size + OBSERVATION_SLICES["node_harbor"].stop - _O["node_harbor"], np.float32)
    for h in range(NUM_HEXES):
        block[h * 6 + int(layout.terrains[h])] = 1.0
        number = layout.numbers[h]
        if number:
            block[NUM_HEXES * 6 + h * 11 + number - 2] = 1.0
    harbor = size
    for site, kind in enumerate(layout.harbors):
        for node in topo.edge_nodes[topo.harbor_edges[site]]:
            block[harbor + node * 6 + (0 if kind is None else 1 + int(kind))] = 1.0
    block.setflags(write=False)
    return block


def encode_observation(obs: Observation) -> np.ndarray:
    """The flat ``float32`` vector of a seat's observation (layout in the module doc)."""
    me = obs.seat
    if me is None:
        raise ValueError("encode_observation needs a seat's observation, not a spectator's")
    assert obs.hand is not None and obs.dev_cards is not None and obs.dev_cards_new is not None
    n = len(obs.resource_counts)
    config = obs.config
    vp = float(config.vp_to_win)
    x = np.zeros(OBSERVATION_SIZE, dtype=np.float32)

    base = _O["node_building"]
    for v, (owner, kind) in enumerate(zip(obs.node_owner, obs.node_kind, strict=True)):
        if owner >= 0:
            x[base + v * 8 + 2 * ((owner - me) % n) + kind - 1] = 1.0
    base = _O["edge_road"]
    for e, owner in enumerate(obs.edge_owner):
        if owner >= 0:
            x[base + e * 4 + (owner - me) % n] = 1.0
    static = _board_block(obs.board)
    x[_O["hex_terrain"] : _O["robber"]] = static[: _O["robber"] - _O["hex_terrain"]]
    x[OBSERVATION_SLICES["node_harbor"]] = static[_O["robber"] - _O["hex_terrain"] :]
    x[_O["robber"] + obs.robber] = 1.0

    x[OBSERVATION_SLICES["hand"]] = np.array(obs.hand, np.float32) / BANK_PER_RESOURCE
    x[OBSERVATION_SLICES["dev_cards"]] = np.array(obs.dev_cards, np.float32) / _DEV_DECK
    x[OBSERVATION_SLICES["dev_cards_new"]] = np.array(obs.dev_cards_new, np.float32) / _DEV_DECK

    base = _O["players"]
    for p in range(n):
        row = base + PLAYER_FEATURES * ((p - me) % n)
        x[row : row + PLAYER_FEATURES] = (
            1.0,
            obs.resource_counts[p] / 20.0,
            obs.dev_counts[p] / 25.0,
            obs.knights[p] / 14.0,
            obs.visible_points[p] / vp,
            obs.road_lengths[p] / 15.0,
            obs.roads_left[p] / 15.0,
            obs.settlements_left[p] / 5.0,
            obs.cities_left[p] / 4.0,
            obs.to_discard[p] / 20.0,
            obs.longest_road == p,
            obs.largest_army == p,
            obs.current == p,
            obs.decider == p,
        )
    x[OBSERVATION_SLICES["bank"]] = np.array(obs.bank, np.float32) / BANK_PER_RESOURCE
    x[_O["deck_size"]] = obs.deck_size / 25.0
    x[OBSERVATION_SLICES["played_dev_cards"]] = (
        np.array(obs.played_dev_cards, np.float32) / _DEV_DECK
    )
    x[_O["phase"] + int(obs.phase)] = 1.0
    x[_O["resume_phase"] + int(obs.resume_phase)] = 1.0
    if obs.dice is not None:
        x[_O["dice"] + sum(obs.dice) - 2] = 1.0
    x[_O["flags"] : _O["flags"] + 3] = (obs.rolled, obs.dev_played, obs.built)
    x[_O["free_roads"]] = obs.free_roads / 2.0
    x[_O["turn"]] = obs.turn / config.max_turns
    if obs.offer is not None:
        x[_O["offer"] : _O["offer"] + 10] = np.array(obs.offer[0] + obs.offer[1], np.float32) / 10
    x[_O["offers_made"]] = obs.offers_made / max(1, config.max_trade_offers_per_turn)
    base = _O["responses"]
    for p, answer in enumerate(obs.responses):
        if answer is not None:
            col = 0 if answer == "accept" else 1 if answer == "reject" else 2
            x[base + 3 * ((p - me) % n) + col] = 1.0
    points = obs.points()
    x[_O["own_points"]] = 0.0 if points is None else points / vp
    np.clip(x, 0.0, 1.0, out=x)
    return x


PlayerSpec = str | type[Player]
SeatChoice = int | Literal["rotate", "random"]


class CatanEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning seat against in-process bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        config: RulesConfig | None = None,
        *,
        learner_seat: SeatChoice = 0,
        opponents: PlayerSpec | Sequence[PlayerSpec] = "random",
        reward: Literal["win", "shaped"] = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.config = config or RulesConfig()
        n = self.config.players
        if isinstance(learner_seat, int):
            if not 0 <= learner_seat < n:
                raise ValueError(f"learner_seat must be in 0..{n - 1}, not {learner_seat}")
        elif learner_seat not in ("rotate", "random"):
            raise ValueError("learner_seat must be a seat number, 'rotate' or 'random'")
        if reward not in ("win", "shaped"):
            raise ValueError("reward must be 'win' or 'shaped'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unsupported render_mode {render_mode!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, (str, type)) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"need {n - 1} opponents for {n} players, got {len(specs)}")
        self.opponent_classes: list[type[Player]] = [
            load_player_class(s) if isinstance(s, str) else s for s in specs
        ]
        self.learner_seat_choice: SeatChoice = learner_seat
        self.reward_kind = reward
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(codec.ACTION_SPACE_SIZE)
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.game: Game | None = None
        self.seat = 0
        self.players: list[Player | None] = []
        self._views: list[SeatView] = []
        """Opponents see what their sandboxed bot would decode (no live game state)."""
        self._episode = 0
        self._mask = np.zeros(codec.ACTION_SPACE_SIZE, dtype=bool)
        self._points = 0

    # --- gymnasium API -----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._episode = 0
        n = self.config.players
        game_seed = int(self.np_random.integers(2**31))
        choice = (options or {}).get("learner_seat", self.learner_seat_choice)
        if choice == "rotate":
            seat = self._episode % n
        elif choice == "random":
            seat = int(self.np_random.integers(n))
        elif isinstance(choice, int) and 0 <= choice < n:
            seat = choice
        else:
            raise ValueError(f"bad learner_seat {choice!r}")
        self._episode += 1
        self.seat = seat
        self.game = game = Game.new(self.config, game_seed)
        others = iter(self.opponent_classes)
        self.players = [
            None if p == seat else next(others)(rng=seeded_rng(game_seed, p)) for p in range(n)
        ]
        self._views = [SeatView(self.config, game.layout) for _ in range(n)]
        for p, player in enumerate(self.players):
            if player is not None:
                player.on_game_start(p, self._views[p](game.observe(p, with_legal=False)))
        self._play_others()
        obs = game.observe(seat, with_legal=False)
        self._points = obs.points() or 0
        return encode_observation(obs), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or game.is_over:
            raise RuntimeError("the game is over (or never started): call reset()")
        index = int(action)
        if not 0 <= index < codec.ACTION_SPACE_SIZE:
            raise InvalidActionError(
                f"action index {index} outside 0..{codec.ACTION_SPACE_SIZE - 1}"
            )
        if not self._mask[index]:
            legal = np.flatnonzero(self._mask).tolist()
            raise IllegalActionError(
                f"seat {self.seat}: action index {index} ({codec.decode(index)}) is not legal "
                f"in phase {game.phase.label}; legal indices: {legal}"
            )
        game.apply(codec.decode(index))
        self._play_others()
        obs = game.observe(self.seat, with_legal=False)
        reward = 0.0
        if self.reward_kind == "shaped":
            points = obs.points() or 0
            reward += (points - self._points) / self.config.vp_to_win
            self._points = points
        terminated = truncated = False
        outcome = game.outcome
        if outcome is not None:
            terminated = outcome.termination is Termination.VICTORY
            truncated = not terminated
            if outcome.winner == self.seat:
                reward += 1.0
        return encode_observation(obs), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now, as a boolean vector (a copy)."""
        return self._mask.copy()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        obs = g.observe(self.seat, with_legal=False)
        return (
            f"turn {g.state.turn} phase {g.phase.label} learner seat {self.seat} "
            f"points {list(obs.visible_points)} hand {obs.hand}"
        )

    # --- internals ---------------------------------------------------------------------

    def _play_others(self) -> None:
        """Let the other seats decide until the learner must decide or the game ends."""
        game = self.game
        assert game is not None
        while not game.is_over and game.decider != self.seat:
            seat = game.decider
            player = self.players[seat]
            assert player is not None
            game.apply(player.act(self._views[seat](game.observe(seat))))
        if game.is_over:
            self._mask[:] = False
            outcome = game.outcome
            assert outcome is not None
            for p, player in enumerate(self.players):
                if player is not None:
                    player.on_game_end(self._views[p](game.observe(p, with_legal=False)), outcome)
        else:
            self._mask = np.array(codec.legal_mask(game.legal_actions()), dtype=bool)

    def _info(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "seat": self.seat,
            "turn": game.state.turn,
            "phase": game.phase.label,
        }
        outcome = game.outcome
        if outcome is not None:
            info["outcome"] = outcome.to_dict()
            info["winner"] = outcome.winner
        return info


def _register() -> None:
    if "CatanArena-v0" not in gymnasium.registry:
        gymnasium.register(id="CatanArena-v0", entry_point="bots.gym_env:CatanEnv")


_register()

__all__ = [
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "OBSERVATION_SLICES",
    "OBSERVATION_VERSION",
    "CatanEnv",
    "encode_observation",
]
