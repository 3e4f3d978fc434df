"""The Gymnasium environment: whole games through ``step``, masks, seeding, endings."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")  # CI installs the ``gym`` extra
np = pytest.importorskip("numpy")

from bots import gym_env  # noqa: E402
from bots.gym_env import OBSERVATION_SIZE, CatanEnv, encode_observation  # noqa: E402
from bots.local import play_local_game  # noqa: E402
from bots.registry import load_player_class  # noqa: E402
from engine import Game, RulesConfig, codec  # noqa: E402
from engine.errors import IllegalActionError, InvalidActionError  # noqa: E402


def random_masked(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    assert legal.size, "the learner must always have a legal action while the game runs"
    return int(rng.choice(legal))


def check_obs(env: CatanEnv, obs: np.ndarray) -> None:
    assert obs.shape == (OBSERVATION_SIZE,)
    assert obs.dtype == np.float32
    assert env.observation_space.contains(obs)


def play_episode(env: CatanEnv, seed: int | None, rng: np.random.Generator) -> dict:
    obs, info = env.reset(seed=seed)
    check_obs(env, obs)
    steps, total = 0, 0.0
    while True:
        mask = info["action_mask"]
        assert mask.dtype == bool and mask.shape == (codec.ACTION_SPACE_SIZE,)
        assert np.array_equal(mask, env.action_masks())
        game = env.game
        assert game is not None and game.decider == env.seat
        assert mask.tolist() == codec.legal_mask(game.legal_actions())
        obs, reward, terminated, truncated, info = env.step(random_masked(rng, mask))
        check_obs(env, obs)
        steps += 1
        total += reward
        if terminated or truncated:
            assert not info["action_mask"].any()
            return {"steps": steps, "reward": total, "terminated": terminated,
                    "truncated": truncated, "info": info, "seat": env.seat}  # fmt: skip
        if env.reward_kind == "win":
            assert reward == 0.0


def test_layout_matches_the_documented_table() -> None:
    assert OBSERVATION_SIZE == 1528 == sum(size for _, size in gym_env.OBSERVATION_LAYOUT)
    doc = gym_env.__doc__ or ""
    rows = re.findall(r"^(\w+)\s+(\d+)\s", doc, flags=re.MULTILINE)
    assert [(name, int(size)) for name, size in rows] == list(gym_env.OBSERVATION_LAYOUT)
    assert f"OBSERVATION_SIZE = {OBSERVATION_SIZE}" in doc


def test_whole_games_with_random_masked_actions() -> None:
    env = CatanEnv(learner_seat="rotate")
    assert env.action_space.n == codec.ACTION_SPACE_SIZE
    rng = np.random.default_rng(0)
    seats = []
    for episode in range(4):
        # Only the first reset is seeded, so the seat rotation runs on: 0, 1, 2, 3.
        result = play_episode(env, 100 if episode == 0 else None, rng)
        seats.append(result["seat"])
        assert result["terminated"] and not result["truncated"]
        outcome = result["info"]["outcome"]
        assert outcome["termination"] == "victory"
        assert result["info"]["winner"] == outcome["winner"] is not None
        assert result["reward"] == (1.0 if outcome["winner"] == result["seat"] else 0.0)
    assert seats == [0, 1, 2, 3]


def test_reset_seed_is_deterministic() -> None:
    def trajectory(env: CatanEnv, seed: int) -> list[tuple[bytes, float, bool, bool]]:
        rng = np.random.default_rng(5)
        obs, info = env.reset(seed=seed)
        out = [(obs.tobytes(), 0.0, False, False)]
        for _ in range(300):
            obs, reward, terminated, truncated, info = env.step(
                random_masked(rng, info["action_mask"])
            )
            out.append((obs.tobytes(), reward, terminated, truncated))
            if terminated or truncated:
                break
        return out

    a = CatanEnv(learner_seat="random")
    b = CatanEnv(learner_seat="random")
    first = trajectory(a, 42)
    assert first == trajectory(b, 42)
    assert first == trajectory(a, 42)  # same env, reseeded
    assert first[0] != trajectory(a, 43)[0]


def test_turn_cap_truncates() -> None:
    env = CatanEnv(RulesConfig(max_turns=12), learner_seat=2)
    result = play_episode(env, 3, np.random.default_rng(1))
    assert result["truncated"] and not result["terminated"]
    assert result["reward"] == 0.0
    assert result["info"]["winner"] is None
    assert result["info"]["outcome"]["termination"] == "turn_limit"
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_shaped_reward_tracks_own_points() -> None:
    env = CatanEnv(RulesConfig(players=3), learner_seat=1, reward="shaped")
    result = play_episode(env, 9, np.random.default_rng(2))
    outcome = result["info"]["outcome"]
    won = outcome["winner"] == 1
    expected = outcome["points"][1] / 10 + (1.0 if won else 0.0)
    assert result["reward"] == pytest.approx(expected)


def test_illegal_and_out_of_range_indices_are_rejected() -> None:
    env = CatanEnv()
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    illegal = int(np.flatnonzero(~mask)[0])
    with pytest.raises(IllegalActionError, match=f"action index {illegal}"):
        env.step(illegal)
    for bad in (-1, codec.ACTION_SPACE_SIZE):
        with pytest.raises(InvalidActionError):
            env.step(bad)
    assert np.array_equal(env.action_masks(), mask)  # nothing was applied
    env.step(int(np.flatnonzero(mask)[0]))


def test_observation_is_relative_and_private() -> None:
    game = Game.new(RulesConfig(), seed=4)
    rng = np.random.default_rng(3)
    for _ in range(200):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    seat = 2
    x = encode_observation(game.observe(seat))
    # The seat's own buildings sit in slot 0 of the per-node block.
    nodes = x[gym_env.OBSERVATION_SLICES["node_building"]].reshape(54, 8)
    own = [v for v, o in enumerate(game.state.node_owner) if o == seat]
    assert own and all(nodes[v, 0:2].any() for v in own)
    # Reshuffling another seat's hidden cards (same counts) changes nothing.
    other = game.copy()
    hand = other.state.hands[0]
    total = sum(hand)
    other.state.hands[0] = type(hand)([total, 0, 0, 0, 0])
    other.state.deck.reverse()
    assert np.array_equal(encode_observation(other.observe(seat, with_legal=False)), x)
    with pytest.raises(ValueError, match="spectator"):
        encode_observation(game.observe(None))


def test_opponents_and_make() -> None:
    random_cls = load_player_class("random")
    env = CatanEnv(RulesConfig(players=3), learner_seat=0, opponents=["random", random_cls])
    assert [c.name for c in env.opponent_classes] == ["random", "random"]
    assert env.opponent_classes[1] is random_cls
    with pytest.raises(ValueError, match="opponents"):
        CatanEnv(opponents=["random"])
    with pytest.raises(ValueError, match="learner_seat"):
        CatanEnv(learner_seat=4)
    made = gymnasium.make("CatanArena-v0", learner_seat=1, render_mode="ansi")
    obs, info = made.reset(seed=1)
    assert obs.shape == (OBSERVATION_SIZE,)
    obs, *_ = made.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "learner seat 1" in made.render()
    made.close()


def test_docstring_policy_bot_runs_as_an_ordinary_player(tmp_path: Path) -> None:
    doc = gym_env.__doc__ or ""
    start = doc.index("    from pathlib import Path")
    end = doc.index("It runs like any other bot")
    source = textwrap.dedent(doc[start:end])
    bot = tmp_path / "masked_policy_bot.py"
    bot.write_text(source, encoding="utf-8")
    rng = np.random.default_rng(0)
    hidden = 16
    np.savez(
        tmp_path / "policy.npz",
        w1=rng.normal(size=(OBSERVATION_SIZE, hidden)).astype(np.float32),
        b1=np.zeros(hidden, np.float32),
        w2=rng.normal(size=(hidden, codec.ACTION_SPACE_SIZE)).astype(np.float32),
        b2=np.zeros(codec.ACTION_SPACE_SIZE, np.float32),
    )
    cls = load_player_class(str(bot))
    random_cls = load_player_class("random")
    players = [cls(rng=random.Random(0))] + [random_cls(rng=random.Random(i)) for i in (1, 2)]
    result = play_local_game(RulesConfig(players=3, max_turns=60), seed=8, players=players)
    assert result.timings[0].decisions > 0
