"""Replays: JSON round trip, verification, states at any step, cross-process determinism."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game, ReplayError, RulesConfig
from engine.perf import play_random_game
from engine.replay import Replay, record, resimulate, state_at, verify, view_at

ROOT = Path(__file__).resolve().parents[2]

PLAY_SCRIPT = """
import json, random, sys
from engine import Game, RulesConfig
from engine.perf import play_random_game
from engine.replay import record
game = Game.new(RulesConfig(), int(sys.argv[1]))
play_random_game(game, random.Random(int(sys.argv[1])), observe=False)
print(json.dumps(record(game).to_dict(), sort_keys=True))
"""


def _played(seed: int, config: RulesConfig | None = None) -> Game:
    game = Game.new(config or RulesConfig(), seed)
    play_random_game(game, random.Random(seed), observe=False)
    return game


def _replay_json(game: Game) -> dict[str, object]:
    return json.loads(json.dumps(record(game).to_dict()))


def test_replay_round_trips_through_json_and_verifies() -> None:
    game = _played(3)
    data = _replay_json(game)
    replay = Replay.from_dict(data)
    assert replay.to_dict() == data
    assert verify(replay).outcome == game.outcome
    assert resimulate(replay).state.steps == game.state.steps


def test_same_seed_gives_identical_replays_across_processes() -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-c", PLAY_SCRIPT, "99"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env=env,
        )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    local = json.dumps(record(_played(99)).to_dict(), sort_keys=True) + "\n"
    assert outputs[0] == local
    assert json.loads(local)["result"]["termination"] in ("victory", "turn_limit")


def test_tampered_dice_outcome_is_detected_with_the_step() -> None:
    data = _replay_json(_played(5))
    steps = data["steps"]
    assert isinstance(steps, list)
    index = next(i for i, s in enumerate(steps) if s["action"]["type"] == "roll_dice")
    d1, d2 = steps[index]["outcome"]
    steps[index]["outcome"] = [d1 % 6 + 1, d2]
    with pytest.raises(ReplayError, match=f"step {index}: chance outcome"):
        verify(Replay.from_dict(data))


def test_tampered_action_is_rejected_naming_the_step() -> None:
    data = _replay_json(_played(6))
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[0]["action"] = {"type": "end_turn"}
    with pytest.raises(ReplayError, match=r"step 0: .*end_turn is not allowed in phase"):
        resimulate(Replay.from_dict(data))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(schema_version=3), "newer than this engine supports"),
        (lambda d: d.update(schema_version=1), "version 1 comes from an engine before 0.2"),
        (lambda d: d.update(format="chess"), "not a Catan Arena replay"),
        (lambda d: d.pop("seed"), "seed must be an integer or a string"),
        (lambda d: d.update(seed=[7]), "seed must be an integer or a string"),
        (lambda d: d["config"].update(players=9), "players must be 3 or 4"),
        (lambda d: d["steps"].append({"seat": 0, "action": {"type": "fly"}}), "unknown action"),
    ],
)
def test_malformed_replays_are_rejected_with_a_reason(mutate: object, message: str) -> None:
    data = _replay_json(_played(7))
    mutate(data)  # type: ignore[operator]
    with pytest.raises(ReplayError, match=message):
        Replay.from_dict(data)


def test_state_at_any_step_matches_live_play() -> None:
    config = RulesConfig()
    seed = 8
    live = Game.new(config, seed)
    rng = random.Random(seed)
    snapshots = {}
    for k in range(400):
        if k in (0, 1, 17, 150, 399):
            snapshots[k] = live.copy()
        legal = live.legal_actions()
        live.apply(legal[int(rng.random() * len(legal))])
    replay = record(live)
    for k, expected in snapshots.items():
        for checked in (True, False):  # the viewer's unchecked re-simulation agrees
            got = state_at(replay, k, checked=checked)
            for seat in (None, 0, 1, 2, 3):
                assert got.observe(seat).to_dict() == expected.observe(seat).to_dict()
            assert got.state.hands == expected.state.hands
    with pytest.raises(ReplayError):
        state_at(replay, 10_000)


def test_only_a_checked_resimulation_refuses_an_illegal_step() -> None:
    """``checked=False`` is for replays this engine recorded (the platform's stored
    ones): it skips the legality check, which a file from elsewhere must pass."""
    data = _replay_json(_played(6))
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[0]["action"] = {"type": "end_turn"}
    replay = Replay.from_dict(data)
    with pytest.raises(ReplayError, match="step 0"):
        state_at(replay, 1)
    state_at(replay, 1, checked=False)  # control: unchecked, it is not asked


def test_cli_replay_reproduces_and_rejects_bad_files(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record(_played(9)).to_dict()))
    truncated = tmp_path / "truncated.json"
    truncated.write_text(good.read_text()[:500])
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**json.loads(good.read_text()), "schema_version": 7}))
    broken = tmp_path / "broken.json"
    data = json.loads(good.read_text())
    data["steps"][40]["outcome"] = "nonsense"
    broken.write_text(json.dumps(data))

    def run(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "arena_cli.main", "replay", str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )

    ok = run(good)
    assert ok.returncode == 0, ok.stderr
    assert "reproduces" in ok.stdout
    for path, needle in (
        (truncated, "not valid JSON"),
        (future, "newer than this engine supports"),
        (tmp_path / "missing.json", "cannot read"),
        (broken, "step 40"),
    ):
        bad = run(path)
        assert bad.returncode == 1
        assert needle in bad.stderr
        assert "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_viewer_gets_an_all_seeing_view_and_a_view_per_seat() -> None:
    game = _played(12)
    replay = record(game)
    k = len(replay.steps) // 2
    everything = view_at(replay, k)
    at_k = state_at(replay, k).state
    assert everything["hands"] == [list(h) for h in at_k.hands]
    assert sum(everything["deck"]) == everything["deck_size"]
    assert len(everything["history"]) == k
    stolen = [
        i
        for i, step in enumerate(replay.steps[:k])
        if step.action.kind == "move_robber" and step.outcome is not None
    ]
    for seat in range(4):
        mine = view_at(replay, k, seat)
        assert mine["hand"] == list(at_k.hands[seat]) and "hands" not in mine
        for i in stolen:
            step = replay.steps[i]
            visible = seat in (step.seat, step.action.victim)  # type: ignore[attr-defined]
            assert (mine["history"][i]["outcome"] is not None) == visible
    assert view_at(replay, k, None)["hand"] is None
    with pytest.raises(ReplayError):
        view_at(replay, k, 7)
