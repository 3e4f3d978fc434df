from bots import Player
from engine.actions import MoveRobber

PARAMS: dict = {}


class Liar(Player):
    """Claims an action the rules do not allow (moving the robber where it stands)."""

    def act(self, observation):
        return MoveRobber(observation.robber, None)
