"""The seccomp layer ALONE (no uid drop, no namespaces, no Landlock: the script runs as
this test's own user, root in CI) blocks each attack below; the positive control runs
the very same script with no layer at all and every attack succeeds, so a broken attack
can never pass for a blocked one.

Renicing "every process of a user" targets a user of its own, holding one ``sleep`` (root's
tests claim a uid from the sandbox pool): aimed at the test's own user, the control once
put every root process of the machine, the test run included, at niceness 5. Not as
root, there is no such user to aim at, and that one attack is left out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena_runner.sandbox.uids import UidClaim, claim_uid
from bots.jail import ENV_VAR, JailLimits, encode_config

SCRIPT = r"""
import ctypes, errno, json, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
peer = int(sys.argv[1])
user = int(sys.argv[2])
NR = {"timer_create": 222, "sync": 162, "syncfs": 306, "inotify_init1": 294,
      "prlimit64": 302, "sched_setaffinity": 203, "setpriority": 141, "ioprio_set": 251,
      "prctl": 157, "fcntl": 72}
results = {}

def sys_(name, *args):
    ret = libc.syscall(ctypes.c_long(NR[name]), *[ctypes.c_long(a) for a in args])
    return "ok" if ret >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")

class SigEvent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int),
                ("notify", ctypes.c_int), ("pad", ctypes.c_int * 12)]

event = SigEvent(None, signal.SIGCONT, 0)  # SIGEV_SIGNAL
timer = ctypes.c_void_p()
results["timer_create SIGCONT"] = sys_(
    "timer_create", 1, ctypes.addressof(event), ctypes.addressof(timer))
read, write = os.pipe()
results["fcntl F_SETSIG"] = sys_("fcntl", read, 10, signal.SIGCONT)
results["fcntl F_SETOWN"] = sys_("fcntl", read, 8, os.getpid())
results["sync"] = sys_("sync")
results["syncfs"] = sys_("syncfs", read)
results["inotify_init1"] = sys_("inotify_init1", 0)
limit = (ctypes.c_ulong * 2)(1, 2)
results["prlimit64 peer RLIMIT_CPU"] = sys_("prlimit64", peer, 0, ctypes.addressof(limit), 0)
mask = ctypes.c_ulong(1)
results["sched_setaffinity peer"] = sys_("sched_setaffinity", peer, 8, ctypes.addressof(mask))
results["setpriority peer"] = sys_("setpriority", 0, peer, 5)
if user != os.getuid():  # every process of a user: one sleep of a uid of its own
    results["setpriority user"] = sys_("setpriority", 2, user, 5)
results["ioprio_set peer"] = sys_("ioprio_set", 1, peer, (2 << 13) | 7)
results["prctl PDEATHSIG high bit"] = sys_("prctl", (1 << 32) | 1, 0, 0, 0, 0)
# what a bot may still do to itself
own = (ctypes.c_ulong * 2)()
results["own prlimit64 read"] = sys_("prlimit64", 0, 0, 0, ctypes.addressof(own))
results["own setpriority"] = sys_("setpriority", 0, 0, 1)
here = ctypes.c_ulong(1 << min(os.sched_getaffinity(0)))
results["own sched_setaffinity"] = sys_("sched_setaffinity", 0, 8, ctypes.addressof(here))
print(json.dumps(results))
"""
ATTACKS = (
    "timer_create SIGCONT", "fcntl F_SETSIG", "fcntl F_SETOWN", "sync", "syncfs",
    "inotify_init1", "prlimit64 peer RLIMIT_CPU", "sched_setaffinity peer",
    "setpriority peer", "setpriority user", "ioprio_set peer", "prctl PDEATHSIG high bit",
)  # fmt: skip
OWN = ("own prlimit64 read", "own setpriority", "own sched_setaffinity")


def run(tmp_path: Path, layers: list[str]) -> dict[str, Any]:
    script = tmp_path / "attack.py"
    script.write_text(SCRIPT)
    config = {
        "apply": layers,
        "require": layers,
        "limits": vars(JailLimits(processes=1 << 20)),
        "readable_paths": [],
        "writable_tmp": None,
    }
    peer = subprocess.Popen(["sleep", "60"])
    user, user_process, claim = _user()
    niceness = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        out = subprocess.run(
            [sys.executable, "-I", "-m", "bots.jail", str(script), str(peer.pid), str(user)],
            env={ENV_VAR: encode_config(config), "PYTHONPATH": str(Path.cwd())},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
    finally:
        for process in (peer, user_process):
            if process is not None:
                process.kill()
                process.wait()
        if claim is not None:
            claim.release()
    assert os.getpriority(os.PRIO_PROCESS, 0) == niceness  # the attacks stayed on the peer
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def _user() -> tuple[int, subprocess.Popen[bytes] | None, UidClaim | None]:
    """The user "every process of a user" aims at: as root a sandbox uid claimed for the
    test, running one ``sleep``; else our own (and the script leaves that attack out)."""
    if os.geteuid() != 0:
        return os.geteuid(), None, None
    claim = claim_uid()
    drop = [f"--reuid={claim.uid}", f"--regid={claim.uid}", "--clear-groups"]
    return claim.uid, subprocess.Popen(["setpriv", *drop, "sleep", "60"]), claim


def expected(attacks: tuple[str, ...], results: dict[str, Any]) -> tuple[str, ...]:
    """The attacks the script ran (not as root, "setpriority user" is left out)."""
    return tuple(name for name in attacks if name in results)


@pytest.mark.skipif(sys.platform != "linux" or os.uname().machine != "x86_64", reason="x86_64")
def test_positive_control_every_attack_works_without_the_jail(tmp_path: Path) -> None:
    results = run(tmp_path, [])
    names = expected((*ATTACKS, *OWN), results)
    assert os.geteuid() != 0 or names == (*ATTACKS, *OWN)
    assert {name: results[name] for name in names} == dict.fromkeys(names, "ok")


@pytest.mark.skipif(sys.platform != "linux" or os.uname().machine != "x86_64", reason="x86_64")
def test_seccomp_alone_blocks_every_attack_and_keeps_own_calls(tmp_path: Path) -> None:
    results = run(tmp_path, ["seccomp"])
    attacks = expected(ATTACKS, results)
    assert {name: results[name] for name in attacks} == dict.fromkeys(attacks, "EPERM")
    assert {name: results[name] for name in OWN} == dict.fromkeys(OWN, "ok")


FAIL_CLOSED = """
import json, bots.jail as jail
jail.DENIED_SYSCALLS = (*jail.DENIED_SYSCALLS, "no_such_syscall")
try:
    report = jail.harden(jail.JailLimits(), writable_tmp=None, readable_paths=[],
                         apply=["seccomp"], require=REQUIRE)
except jail.JailError as exc:
    print(json.dumps({"error": str(exc)}))
else:
    print(json.dumps({"error": None, "applied": report.applied, "why": report.errors}))
"""


@pytest.mark.parametrize("required", [True, False])
def test_an_unknown_syscall_name_fails_the_layer_closed(required: bool) -> None:
    code = FAIL_CLOSED.replace("REQUIRE", '["seccomp"]' if required else "[]")
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    result = json.loads(out.stdout)
    if required:  # the bot is never started
        assert "seccomp" in result["error"] and "no_such_syscall" in result["error"]
    else:  # not required: reported as not applied, naming why (never "applied")
        assert result["error"] is None and result["applied"]["seccomp"] is False
        assert "no_such_syscall" in result["why"]["seccomp"]
