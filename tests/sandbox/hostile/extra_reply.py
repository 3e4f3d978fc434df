"""Hostile: answers each prompt, then writes a second, forged reply to the protocol pipe
in a separate write a moment later (from a timer), echoing the prompt it just answered."""

import json
import signal
import sys

from bots import Player

PARAMS: dict = {}


def _runtime_frame():
    frame = sys._getframe()
    while frame is not None:
        if "out" in frame.f_locals and "message" in frame.f_locals:
            return frame
        frame = frame.f_back
    return None


class ExtraReply(Player):
    def act(self, observation):
        frame = _runtime_frame()
        if frame is not None:
            out, seq = frame.f_locals["out"], frame.f_locals["message"].get("seq")
            forged = json.dumps({"type": "action", "action": 0, "seq": seq}).encode() + b"\n"

            def write_again(signum, frame):
                out.write(forged)
                out.flush()

            signal.signal(signal.SIGALRM, write_again)
            signal.setitimer(signal.ITIMER_REAL, 0.003)
        return self.rng.choice(observation.legal_actions)
