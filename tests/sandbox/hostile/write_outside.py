import os
import sys

from bots import Player

PARAMS: dict = {}


class WriteOutside(Player):
    def act(self, observation):
        with open("scratch.txt", "w") as f:  # its own tmp: allowed
            f.write("ok")
        for path in [PARAMS["outside"], "/bot/evil.py", "/usr/evil", "/arena/src/engine/evil.py"]:
            try:
                with open(path, "w") as f:
                    f.write("evil")
            except OSError as exc:
                print(f"blocked: {path}: {exc!r}", file=sys.stderr)
            else:
                raise RuntimeError(f"ESCAPED: wrote {path}")
        print(f"cwd {os.getcwd()}", file=sys.stderr)
        return self.rng.choice(observation.legal_actions)
