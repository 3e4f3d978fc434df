"""The compact observation stream: every observation a seat gets survives it exactly."""

from __future__ import annotations

import io
import random

import pytest

from bots.protocol import encode_host, read_host_message
from engine import Game, RulesConfig
from engine import actions as A
from engine.errors import EngineError
from engine.observation import Observation
from engine.observation_json import observation_to_dict
from engine.observation_stream import FIELDS, ObservationDecoder, ObservationEncoder


def _wire(data: dict[str, object]) -> object:
    """``data`` as the bot process reads it (the protocol's host-to-child frame)."""
    frame = encode_host({"type": "act", "seq": 1, "observation": data})
    return read_host_message(io.BytesIO(frame))["observation"]  # type: ignore[index]


def _custom_offer(game: Game, rng: random.Random) -> A.Action | None:
    """A fresh (not interned) two-for-one offer, when one is legal now."""
    give = [0] * 5
    give[rng.randrange(5)] = 2
    get = [0] * 5
    get[rng.randrange(5)] = 1
    offer = A.ProposeTrade(tuple(give), tuple(get))
    try:
        game.check(offer)
    except EngineError:
        return None
    return offer


def _play_through_streams(config: RulesConfig, seed: int) -> int:
    game = Game.new(config, seed)
    rng = random.Random(seed)
    n = config.players
    encoders = [ObservationEncoder() for _ in range(n)]
    decoders = [ObservationDecoder(game.config, game.layout) for _ in range(n)]
    for seat in range(n):  # the start message: no legal actions yet
        decoders[seat].decode(_wire(encoders[seat].encode(game.observe(seat, with_legal=False))))
    checked = 0
    while not game.is_over:
        seat = game.decider
        obs = game.observe(seat)
        back = decoders[seat].decode(_wire(encoders[seat].encode(obs)))
        assert observation_to_dict(back) == observation_to_dict(obs)
        assert back.legal_actions == obs.legal_actions
        assert len(back.history) == len(obs.history)
        if checked % 53 == 0:
            assert list(back.history) == list(obs.history)
        action = rng.choice(back.legal_actions)
        number = decoders[seat].number_of(action)
        assert (
            number is not None
            and encoders[seat].action(number) is obs.legal_actions[back.legal_actions.index(action)]
        )
        custom = _custom_offer(game, rng) if rng.random() < 0.05 else None
        game.apply(custom or encoders[seat].action(number))
        checked += 1
    for seat in range(n):  # the end message: the full history, as the seat may see it
        final = game.observe(seat, with_legal=False)
        back = decoders[seat].decode(_wire(encoders[seat].encode(final)))
        assert list(back.history) == list(final.history)
        assert observation_to_dict(back) == observation_to_dict(final)
    return checked


@pytest.mark.parametrize(
    ("config", "seed"),
    [(RulesConfig(), 1), (RulesConfig(), 2), (RulesConfig(players=3, friendly_robber=True), 3)],
)
def test_every_observation_of_a_game_survives_the_stream(config: RulesConfig, seed: int) -> None:
    assert _play_through_streams(config, seed) > 200


def test_fields_are_the_observation_json_fields() -> None:
    game = Game.new(RulesConfig(), 1)
    names = set(observation_to_dict(game.observe(0))) - {"version", "legal_actions", "clock"}
    assert set(FIELDS) == names


def test_later_observations_carry_only_what_changed() -> None:
    game = Game.new(RulesConfig(), 4)
    encoder = ObservationEncoder()
    first = encoder.encode(game.observe(0))
    assert set(first["fields"]) == set(FIELDS)
    again = encoder.encode(game.observe(0))
    assert "fields" not in again and "actions" not in again and "history" not in again
    assert again["legal"] == first["legal"]
    game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    delta = encoder.encode(game.observe(0))
    assert delta["history_start"] == 0 and len(delta["history"]) == 2
    assert len(delta["fields"]) < len(FIELDS) // 2


def _first(game: Game) -> dict[str, object]:
    return ObservationEncoder().encode(game.observe(0))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: [],
        lambda d: {**d, "actions_start": 3},
        lambda d: {**d, "history_start": 7, "history": []},
        lambda d: {**d, "legal": [10_000]},
        lambda d: {**d, "legal": [-1]},
        lambda d: {**d, "legal": ["x"]},
        lambda d: {k: v for k, v in d.items() if k != "fields"},
        lambda d: {**d, "fields": {**d["fields"], "phase": "nap"}},
        lambda d: {**d, "fields": {**d["fields"], "hand": "five"}},
        lambda d: {**d, "actions": [{"type": "teleport"}]},
    ],
)
def test_malformed_stream_raises_value_error(change: object) -> None:
    game = Game.new(RulesConfig(), 1)
    data = change(_first(game))  # type: ignore[operator]
    with pytest.raises(ValueError):
        ObservationDecoder(game.config, game.layout).decode(_wire(data))


def test_decoded_observations_are_independent_snapshots() -> None:
    game = Game.new(RulesConfig(), 6)
    encoder, decoder = ObservationEncoder(), ObservationDecoder(game.config, game.layout)
    before = decoder.decode(_wire(encoder.encode(game.observe(0))))
    snapshot = observation_to_dict(before)
    while game.decider == 0 or len(game.state.steps) < 4:
        game.apply(game.legal_actions()[0])
    after = decoder.decode(_wire(encoder.encode(game.observe(0))))
    assert observation_to_dict(before) == snapshot != observation_to_dict(after)
    assert isinstance(after, Observation) and len(before.history) < len(after.history)


def test_unknown_action_number_from_the_bot_is_refused() -> None:
    encoder = ObservationEncoder()
    encoder.encode(Game.new(RulesConfig(), 1).observe(0))
    for bad in (-1, 10_000, True, "3"):
        with pytest.raises(ValueError):
            encoder.action(bad)
