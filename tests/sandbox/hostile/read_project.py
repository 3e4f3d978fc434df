import sys

from bots import Player

PARAMS: dict = {}


class ReadProject(Player):
    def act(self, observation):
        for path in PARAMS["paths"]:
            try:
                with open(path) as f:
                    data = f.read(10)
            except OSError as exc:
                print(f"blocked: {path}: {exc!r}", file=sys.stderr)
            else:
                raise RuntimeError(f"ESCAPED: read {path}: {data!r}")
        return self.rng.choice(observation.legal_actions)
