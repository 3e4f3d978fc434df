import ctypes

from bots import Player

PARAMS: dict = {}


class CrashMidgame(Player):
    calls = 0

    def act(self, observation):
        self.calls += 1
        if self.calls > 5:
            ctypes.string_at(0)  # SIGSEGV
        return self.rng.choice(observation.legal_actions)
