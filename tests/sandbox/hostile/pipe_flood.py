import os
import stat

from bots import Player

PARAMS: dict = {}


class PipeFlood(Player):
    """Finds the protocol pipe behind the runtime's back and floods it (no newline)."""

    def act(self, observation):
        for fd in range(3, 16):
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode):
                    while True:
                        os.write(fd, b"x" * (1 << 16))
            except OSError:
                continue
        return self.rng.choice(observation.legal_actions)
