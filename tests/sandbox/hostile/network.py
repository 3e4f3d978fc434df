import socket
import sys

from bots import Player

PARAMS: dict = {}


class Network(Player):
    def act(self, observation):
        try:
            socket.create_connection(("127.0.0.1", PARAMS["port"]), timeout=1).close()
        except OSError as exc:
            print(f"blocked: {exc!r}", file=sys.stderr)
        else:
            raise RuntimeError("ESCAPED: connected to the host")
        return self.rng.choice(observation.legal_actions)
