import ctypes
import os
import platform
import sys

from bots import Player

PARAMS: dict = {}
NUMBERS = {
    "x86_64": {"socket": 41, "ptrace": 101, "unshare": 272, "fork": 57, "execve": 59},
    "aarch64": {"socket": 198, "ptrace": 117, "unshare": 97, "execve": 221},
}
CALLS = {
    "socket": (2, 1, 0),
    "ptrace": (16, 1, 0, 0),
    "unshare": (0x10000000,),
    "fork": (),
    "execve": (0, 0, 0),
}


class CtypesSyscalls(Player):
    def act(self, observation):
        libc = ctypes.CDLL(None, use_errno=True)
        for name, number in NUMBERS[platform.machine()].items():
            ret = libc.syscall(number, *CALLS[name])
            if ret >= 0:
                if ret == 0 and name == "fork":
                    os._exit(0)
                raise RuntimeError(f"ESCAPED: raw {name} returned {ret}")
            print(f"blocked: {name}: {os.strerror(ctypes.get_errno())}", file=sys.stderr)
        return self.rng.choice(observation.legal_actions)
