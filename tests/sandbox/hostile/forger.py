import os
import stat
import sys

from bots import Player
from bots.protocol import encode

PARAMS: dict = {}


def _prompt_seq():
    """The seq of the prompt being answered, read from the runtime's own frame."""
    frame = sys._getframe()
    while frame is not None:
        message = frame.f_locals.get("message")
        if isinstance(message, dict) and "seq" in message:
            return message["seq"]
        frame = frame.f_back
    return None


class Forger(Player):
    """Answers its prompt itself, on the protocol pipe, with the prompt's own seq —
    and then lets the runtime write the real reply too: one reply too many."""

    forged = 0

    def act(self, observation):
        choice = observation.legal_actions[0]
        seq = _prompt_seq()
        if seq is not None and Forger.forged == 0:
            line = encode({"type": "action", "action": choice.to_dict(), "seq": seq})
            for fd in range(3, 16):
                try:
                    if stat.S_ISFIFO(os.fstat(fd).st_mode):
                        os.write(fd, line)
                        Forger.forged += 1
                        print("FORGED on fd", fd, flush=True)
                except OSError:
                    continue
        return choice
