"""The viewer's dice in faces (no database needed)."""

from __future__ import annotations

from catan_arena.web.replay_view import Frame


def frame_with(dice: tuple[int, int] | None) -> Frame:
    return Frame(step=0, steps=0, svg="", players=[], dice=dice)


def test_the_dice_show_as_faces_and_a_sum() -> None:
    assert frame_with((6, 5)).dice_faces == "⚅ ⚄ = 11"
    assert frame_with((1, 3)).dice_faces == "⚀ ⚂ = 4"
    assert frame_with(None).dice_faces == ""
