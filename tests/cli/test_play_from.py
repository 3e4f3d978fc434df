"""``catan-arena play --from FILE --step N``: play on from any step of a recorded game
(the site's "continue from here"), with any bots, in their sandboxes or in-process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena_cli.position import PositionError, load_position
from tests.support.cli import run_cli

PEEKER = """
from bots import Player


class Peeker(Player):
    \"\"\"Prints what it was shown of the hands at its first decision.\"\"\"

    def act(self, observation):
        if not getattr(self, "told", False):
            self.told = True
            print("HAND", observation.hand, "COUNTS", observation.resource_counts)
        return observation.legal_actions[0]
"""


def record(tmp_path: Path, *bots: str, seed: int = 11) -> dict[str, Any]:
    out = tmp_path / "original"
    run = run_cli("play", *bots, "--games", "1", "--seed", str(seed), "--in-process",
                  "--replays", str(out))  # fmt: skip
    assert run.returncode == 0, run.stderr
    (path,) = out.glob("*.json")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def cut(data: dict[str, Any], step: int, tmp_path: Path, **changes: Any) -> Path:
    """The site's download: the replay cut after ``step`` steps."""
    position = {**data, "steps": data["steps"][:step], "result": None,
                "meta": {"from_step": step}, **changes}  # fmt: skip
    path = tmp_path / f"position-{step}.json"
    path.write_text(json.dumps(position))
    return path


def continue_from(path: Path, tmp_path: Path, *extra: str, bots: tuple[str, ...]) -> list[Any]:
    out = tmp_path / f"continued-{path.stem}-{len(list(tmp_path.iterdir()))}"
    games = () if "--games" in extra else ("--games", "1")
    run = run_cli("play", *bots, "--from", str(path), "--in-process", "--replays", str(out),
                  *games, *extra)  # fmt: skip
    assert run.returncode == 0, run.stderr
    return [json.loads(p.read_text()) for p in sorted(out.glob("*.json"))]


def dice(replay: dict[str, Any]) -> list[Any]:
    return [s["outcome"] for s in replay["steps"] if s["action"]["type"] == "roll_dice"]


BOTS = ("heuristic", "heuristic", "random", "random")


@pytest.mark.parametrize("where", ["setup", "before a roll", "mid turn"])
def test_the_continuation_starts_with_the_recorded_steps_and_its_luck(
    tmp_path: Path, where: str
) -> None:
    original = record(tmp_path, *BOTS)
    steps = original["steps"]
    step = {
        "setup": 5,
        "before a roll": next(i for i, s in enumerate(steps) if i > 150
                              and s["action"]["type"] == "roll_dice"),
        "mid turn": next(i for i, s in enumerate(steps) if i > 150
                         and s["action"]["type"].startswith("build")),
    }[where]  # fmt: skip
    (continued,) = continue_from(cut(original, step, tmp_path), tmp_path, bots=BOTS)
    assert continued["steps"][:step] == steps[:step]
    assert continued["meta"]["from_step"] == step and continued["seed"] == original["seed"]
    # the recorded seed: the dice go on exactly as in the recorded game (the bots, started
    # afresh at the position, may decide otherwise: their own random state is new)
    common = min(len(dice(continued)), len(dice(original)))
    assert dice(continued)[:common] == dice(original)[:common] and common > len(
        dice({"steps": steps[:step]})
    )


def test_reseeded_continuations_share_the_past_and_not_the_future(tmp_path: Path) -> None:
    original = record(tmp_path, *BOTS)
    step = 120
    games = continue_from(cut(original, step, tmp_path), tmp_path, "--games", "3", "--reseed",
                          bots=("random",) * 4)  # fmt: skip
    past = dice({"steps": original["steps"][:step]})
    futures = set()
    for game in games:
        assert game["steps"][:step] == original["steps"][:step]
        assert dice(game)[: len(past)] == past
        futures.add(json.dumps(dice(game)[len(past) :]))
    assert len(futures) == 3 and all(g["seed"] != original["seed"] for g in games)


def test_a_withheld_seed_draws_fresh_chance(tmp_path: Path) -> None:
    original = record(tmp_path, *BOTS)
    (game,) = continue_from(cut(original, 100, tmp_path, seed=None), tmp_path, bots=BOTS)
    assert game["steps"][:100] == original["steps"][:100] and game["seed"] != original["seed"]


def test_bad_positions_are_clear_errors(tmp_path: Path) -> None:
    original = record(tmp_path, *BOTS)
    path = cut(original, 50, tmp_path)
    cases = {
        ("--step", "51"): "--step 51: the file has steps 0 to 50",
        ("--step", "-1"): "the file has steps",
        ("--no-trade",): "come from the position",
    }
    for extra, words in cases.items():
        run = run_cli("play", *BOTS, "--from", str(path), "--in-process", *extra)
        assert run.returncode == 2 and words in run.stderr, (extra, run.stderr)
    three = run_cli("play", *BOTS[:3], "--from", str(path), "--in-process")
    assert three.returncode == 2 and "give 4 bots" in three.stderr
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "something else"}')
    assert "not a Catan Arena replay" in run_cli("play", *BOTS, "--from", str(junk)).stderr
    ended = tmp_path / "ended.json"
    ended.write_text(json.dumps(original))
    with pytest.raises(PositionError, match="the game is over"):
        load_position(str(ended), None)
    assert "--step needs --from" in run_cli("play", *BOTS, "--step", "3").stderr


def test_a_sandboxed_bot_sees_only_its_own_hand_at_the_position(tmp_path: Path) -> None:
    original = record(tmp_path, *BOTS)
    path = cut(original, 200, tmp_path)
    peeker = tmp_path / "peeker.py"
    peeker.write_text(PEEKER)
    logs = tmp_path / "logs"
    run = run_cli("play", str(peeker), "heuristic", "random", "random", "--from", str(path),
                  "--games", "1", "--logs", str(logs))  # fmt: skip
    assert run.returncode == 0, run.stderr
    (log,) = logs.glob("*Peeker*.log")
    line = next(x for x in log.read_text().splitlines() if x.startswith("HAND"))
    from engine.replay import Replay, state_at

    state = state_at(Replay.from_dict(json.loads(path.read_text())), 200).state
    assert line == f"HAND {tuple(state.hands[0])} COUNTS {tuple(map(sum, state.hands))}"
    assert (
        str(tuple(state.hands[1])) not in line.split("COUNTS")[0]
        or state.hands[1] == state.hands[0]
    )
