import os
import sys

from bots import Player

PARAMS: dict = {}


class Environment(Player):
    def act(self, observation):
        if os.environ:
            raise RuntimeError(f"ESCAPED: environment {dict(os.environ)}")
        print("blocked: the environment is empty", file=sys.stderr)
        return self.rng.choice(observation.legal_actions)
