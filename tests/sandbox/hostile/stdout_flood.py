import sys

from bots import Player

PARAMS: dict = {}


class StdoutFlood(Player):
    flooded = False

    def act(self, observation):
        if not self.flooded:
            self.flooded = True
            sys.stdout.write("x" * 100_000_000)  # 100 MB: lands in the capped log
            sys.stdout.flush()
        return self.rng.choice(observation.legal_actions)
