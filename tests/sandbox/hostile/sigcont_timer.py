"""Hostile: runs while it is supposed to be frozen. It arms a POSIX timer delivering
SIGCONT every millisecond (a process stopped with SIGSTOP wakes on it) and a SIGCONT
handler that burns CPU, falling back to a SIGALRM interval timer when the POSIX timer
is denied (that SIGALRM would wake it from a sleep on its input pipe, where the runner
leaves it unfrozen). It reports which timers it got on stderr."""

import ctypes
import signal
import sys
import time

from bots import Player

PARAMS: dict = {}


BUSY = []


def burn(signum, frame):
    if BUSY:  # ticks keep coming while it burns: never nest (RecursionError)
        return
    BUSY.append(1)
    try:
        end = time.process_time() + 0.004
        while time.process_time() < end:
            pass
    finally:
        BUSY.clear()


class _SigEvent(ctypes.Structure):
    _fields_ = [
        ("value", ctypes.c_void_p),
        ("signo", ctypes.c_int),
        ("notify", ctypes.c_int),
        ("pad", ctypes.c_int * 12),
    ]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", ctypes.c_long * 2), ("value", ctypes.c_long * 2)]


def arm_sigcont_timer() -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    event = _SigEvent(None, signal.SIGCONT, 0)  # SIGEV_SIGNAL
    timer = ctypes.c_void_p()
    if libc.syscall(222, 1, ctypes.byref(event), ctypes.byref(timer)) < 0:  # timer_create
        return f"timer_create denied (errno {ctypes.get_errno()})"
    spec = _ITimerSpec((0, 1_000_000), (0, 1_000_000))  # every 1 ms
    libc.syscall(223, timer, 0, ctypes.byref(spec), None)  # timer_settime
    return "timer_create armed"


class SigcontTimer(Player):
    armed = False

    def act(self, observation):
        if not self.armed:
            self.armed = True
            signal.signal(signal.SIGCONT, burn)
            how = arm_sigcont_timer()
            if "denied" in how:
                signal.signal(signal.SIGALRM, burn)
                try:
                    signal.setitimer(signal.ITIMER_REAL, 0.001, 0.02)
                    how += "; setitimer armed"
                except OSError as exc:
                    how += f"; setitimer denied (errno {exc.errno})"
            print(how, file=sys.stderr, flush=True)
        return self.rng.choice(observation.legal_actions)
