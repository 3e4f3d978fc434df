import signal
import time

from bots import Player

PARAMS: dict = {}


def burn(signum, frame):
    end = time.perf_counter() + 0.02
    while time.perf_counter() < end:
        pass


class OffturnBurner(Player):
    """Threads are denied, so it burns CPU from a timer signal between its turns."""

    def act(self, observation):
        if signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0):
            signal.signal(signal.SIGALRM, burn)
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.025)
        return self.rng.choice(observation.legal_actions)
