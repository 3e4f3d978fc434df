import sys

from bots import Player

PARAMS: dict = {}


class ReadShadow(Player):
    def act(self, observation):
        try:
            with open("/etc/shadow") as f:
                data = f.read(10)
        except OSError as exc:
            print(f"blocked: {exc!r}", file=sys.stderr)
        else:
            raise RuntimeError(f"ESCAPED: read /etc/shadow: {data!r}")
        return self.rng.choice(observation.legal_actions)
