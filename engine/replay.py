"""Replays: a versioned JSON document that reproduces a whole game.

A replay holds the rules configuration, the seed, the board, the seats, every step
(who decided what, and the chance outcome it drew) and the result. :func:`resimulate`
re-applies the recorded steps, forcing the recorded chance outcomes; :func:`verify`
replays from the seed alone and checks that every outcome and the result come out the
same. The format is documented in docs/replay-format.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, action_from_dict
from engine.board.layouts import BoardLayout
from engine.config import RulesConfig
from engine.errors import ConfigError, EngineError, InvalidActionError, ReplayError
from engine.game import Game
from engine.observation import outcome_from_json, outcome_to_json

FORMAT = "catan-arena-replay"
SCHEMA_VERSION = 2
"""2: chance from keyed BLAKE2b streams (:mod:`engine.rng`), seeds may be strings. A
version 1 replay (one SplitMix64 generator) cannot be re-simulated and is refused."""


@dataclass(frozen=True)
class ReplayStep:
    seat: int
    action: Action
    outcome: Any = None
    """Chance outcome in JSON form: dice ``[3, 4]``, a card ``"knight"``, a resource."""


@dataclass(frozen=True)
class Replay:
    config: RulesConfig
    seed: int | str
    """The game's seed (published with the replay, never shown to a bot during play)."""
    layout: BoardLayout
    steps: tuple[ReplayStep, ...]
    result: dict[str, Any] | None
    seats: tuple[dict[str, Any], ...] = ()
    """Who sat where: ``{"seat": 0, "name": "random"}`` and any extra metadata."""
    engine_version: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "schema_version": SCHEMA_VERSION,
            "engine_version": self.engine_version,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "board": self.layout.to_dict(),
            "seats": list(self.seats),
            "steps": [
                {"seat": st.seat, "action": st.action.to_dict(), "outcome": st.outcome}
                for st in self.steps
            ],
            "result": self.result,
            "meta": self.meta,
        }

    @classmethod
    def from_dict(cls, data: object) -> Replay:
        """Parse and validate the envelope; raise :class:`ReplayError` naming the problem."""
        if not isinstance(data, dict):
            raise ReplayError("a replay must be a JSON object")
        if data.get("format") != FORMAT:
            raise ReplayError(f"not a Catan Arena replay (format is {data.get('format')!r})")
        version = data.get("schema_version")
        if not isinstance(version, int):
            raise ReplayError("schema_version is missing")
        if version > SCHEMA_VERSION:
            raise ReplayError(
                f"replay schema version {version} is newer than this engine supports "
                f"({SCHEMA_VERSION}); upgrade catan-arena"
            )
        if version == 1:
            raise ReplayError(
                "replay schema version 1 comes from an engine before 0.2, whose dice and "
                "cards came from a generator this engine no longer has: it cannot be "
                "re-simulated (record the game again)"
            )
        if version < 1:
            raise ReplayError(f"unknown replay schema version {version}")
        try:
            config = RulesConfig.from_dict(data.get("config"))
            layout = BoardLayout.from_dict(data.get("board"))
        except ConfigError as exc:
            raise ReplayError(f"bad config or board: {exc}") from None
        seed = data.get("seed")
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise ReplayError("seed must be an integer or a string")
        raw_steps = data.get("steps")
        if not isinstance(raw_steps, list):
            raise ReplayError("steps must be a list")
        steps = []
        for i, raw in enumerate(raw_steps):
            if not isinstance(raw, dict) or not isinstance(raw.get("seat"), int):
                raise ReplayError(f"step {i}: must be an object with an integer seat")
            try:
                action = action_from_dict(raw.get("action"))
            except InvalidActionError as exc:
                raise ReplayError(f"step {i}: {exc}") from None
            steps.append(ReplayStep(raw["seat"], action, raw.get("outcome")))
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise ReplayError("result must be an object or null")
        seats = data.get("seats", [])
        if not isinstance(seats, list) or not all(isinstance(x, dict) for x in seats):
            raise ReplayError("seats must be a list of objects")
        meta = data.get("meta", {})
        return cls(
            config=config,
            seed=seed,
            layout=layout,
            steps=tuple(steps),
            result=result,
            seats=tuple(seats),
            engine_version=str(data.get("engine_version", "")),
            meta=meta if isinstance(meta, dict) else {},
        )


def record(game: Game, seats: tuple[dict[str, Any], ...] = (), **meta: Any) -> Replay:
    """The replay of ``game`` so far (its result is filled in when the game is over)."""
    from engine import __version__

    outcome = game.outcome
    return Replay(
        config=game.config,
        seed=game.seed,
        layout=game.layout,
        steps=tuple(
            ReplayStep(seat, action, outcome_to_json(action, out))
            for seat, action, out in game.state.steps
        ),
        result=None if outcome is None else outcome.to_dict(),
        seats=seats,
        engine_version=__version__,
        meta=dict(meta),
    )


def _forced(step: ReplayStep) -> object:
    try:
        return outcome_from_json(step.action, step.outcome)
    except ValueError as exc:
        raise ReplayError(str(exc)) from None


def iter_states(replay: Replay, *, checked: bool = True) -> Iterator[tuple[int, Game]]:
    """Yield ``(k, game)`` after the first ``k`` steps, for k = 0..len(steps). The same
    ``Game`` object is advanced in place: copy it to keep a state. ``checked=False``
    skips each action's legality check (about half the cost): only for a replay this
    engine recorded itself and stored unchanged (the platform's, under its sha256), never
    for a file from elsewhere."""
    game = Game.new(replay.config, replay.seed, replay.layout)
    yield 0, game
    for k, step in enumerate(replay.steps, start=1):
        if step.seat != game.decider:
            raise ReplayError(
                f"step {k - 1}: seat {step.seat} acted but seat {game.decider} was to decide"
            )
        try:
            if checked:
                game.check(step.action)
            game.apply_unchecked(step.action, _forced(step))
        except EngineError as exc:
            raise ReplayError(f"step {k - 1}: {exc}") from None
        yield k, game


def state_at(replay: Replay, k: int, *, checked: bool = True) -> Game:
    """The game after the first ``k`` steps (0 = before the first decision);
    ``checked``: as :func:`iter_states`."""
    if not 0 <= k <= len(replay.steps):
        raise ReplayError(f"step {k} is outside 0..{len(replay.steps)}")
    for i, game in iter_states(replay, checked=checked):
        if i == k:
            return game
    raise AssertionError("unreachable")


def resimulate(replay: Replay) -> Game:
    """Re-apply every recorded step (with its recorded chance outcome)."""
    last: Game | None = None
    for _, game in iter_states(replay):
        last = game
    assert last is not None
    return last


def verify(replay: Replay) -> Game:
    """Replay the decisions from the seed alone (no forced outcomes) and check that every
    chance outcome and the final result match the record; raise :class:`ReplayError`."""
    game = Game.new(replay.config, replay.seed)
    if game.layout != replay.layout:
        raise ReplayError("the board does not follow from the seed")
    for k, step in enumerate(replay.steps):
        if step.seat != game.decider:
            raise ReplayError(
                f"step {k}: seat {step.seat} acted but seat {game.decider} was to decide"
            )
        try:
            out = game.apply(step.action)
        except EngineError as exc:
            raise ReplayError(f"step {k}: {exc}") from None
        if outcome_to_json(step.action, out) != step.outcome:
            raise ReplayError(
                f"step {k}: chance outcome {outcome_to_json(step.action, out)!r} differs from "
                f"the recorded {step.outcome!r}"
            )
    result = game.outcome.to_dict() if game.outcome else None
    if result != replay.result:
        raise ReplayError(f"result {result} differs from the recorded {replay.result}")
    return game


def view_at(replay: Replay, k: int, viewer: int | str | None = "all") -> dict[str, Any]:
    """The game after ``k`` steps as JSON, for a replay viewer.

    ``viewer="all"``: the all-seeing view (a spectator's observation plus every seat's
    cards and the deck, and the unmasked history); a seat number: that seat's
    observation; None: the spectator's.
    """
    game = state_at(replay, k)
    if viewer != "all":
        if viewer is not None and not (
            isinstance(viewer, int) and 0 <= viewer < game.config.players
        ):
            raise ReplayError(f"no seat {viewer!r} in this game")
        return game.observe(viewer, with_legal=False).to_dict(history_from=0)
    s = game.state
    view = game.observe(None, with_legal=True).to_dict()
    view["hands"] = [list(hand) for hand in s.hands]
    view["dev_cards_by_seat"] = [list(devs) for devs in s.devs]
    view["deck"] = list(s.deck)
    view["history"] = [
        {"seat": seat, "action": action.to_dict(), "outcome": outcome_to_json(action, out)}
        for seat, action, out in s.steps
    ]
    return view
