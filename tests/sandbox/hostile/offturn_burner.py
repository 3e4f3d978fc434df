"""Hostile: runs after each reply, before it reads its next prompt (timers and threads
are denied, so it does it the other way): its ``act`` reaches into the runtime's loop
and gives the session a ``load_error`` that burns CPU, read right after every reply is
sent. A bot that could run is frozen off turn; this one must be."""

import sys
import time

from bots import Player

PARAMS: dict = {}


def burn() -> None:
    end = time.process_time() + 0.02
    while time.process_time() < end:
        pass


def burning(session_class: type) -> type:
    class Burning(session_class):  # type: ignore[misc, valid-type]
        @property
        def load_error(self) -> None:
            burn()
            return None

        @load_error.setter
        def load_error(self, value: object) -> None:
            pass

    return Burning


class OffturnBurner(Player):
    hooked = False

    def act(self, observation):
        if not self.hooked:
            frame = sys._getframe()
            while frame is not None and frame.f_code.co_name != "serve":
                frame = frame.f_back
            if frame is not None:
                session = frame.f_locals["session"]
                session.__class__ = burning(type(session))
                self.hooked = True
                print("hooked the runtime's loop", file=sys.stderr, flush=True)
        return self.rng.choice(observation.legal_actions)
