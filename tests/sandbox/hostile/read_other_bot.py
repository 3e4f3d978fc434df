import glob
import sys

from bots import Player

PARAMS: dict = {}


class ReadOtherBot(Player):
    def act(self, observation):
        paths = [PARAMS["other_bot"], *glob.glob("/tmp/catan-match-*/seat-*/bot/*.py")]
        for path in [*paths, "/proc/1/environ", "/proc/2/cmdline"]:
            try:
                with open(path, "rb") as f:
                    data = f.read(200)
            except OSError as exc:
                print(f"blocked: {path}: {exc!r}", file=sys.stderr)
            else:
                if b"SECRET" in data or path.startswith("/proc"):
                    raise RuntimeError(f"ESCAPED: read {path}: {data!r}")
        return self.rng.choice(observation.legal_actions)
