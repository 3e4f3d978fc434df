"""The driver that runs a bot file in its own sandboxed process over :mod:`bots.protocol`."""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import time
from collections.abc import Callable
from pathlib import Path

from arena_runner.affinity import pin_process
from arena_runner.faults import classify_death, classify_error
from arena_runner.logs import CappedLog, LogPump
from arena_runner.pipes import LineReader, LineTooLong, PipeClosed, PipeTimeout, write_all
from arena_runner.policy import SandboxPolicy, resolve_policy
from arena_runner.process import BotProcess, kill_bot_process, spawn_bot_process, wait_for_exit
from arena_runner.result import Fault, FaultKind
from arena_runner.sandbox.cgroup_pool import CgroupPool
from arena_runner.sandbox.launch import BOT_MOUNT
from arena_runner.sandbox.limits import Limits
from arena_runner.sandbox.tiers import Tier
from arena_runner.timeouts import (
    TimeoutClock,
    decision_cpu,
    decision_wall,
    decision_wall_cap,
    end_of_game,
    game_spent,
    start_up,
)
from arena_runner.workdir import disk_usage, make_workdir, remove_workdir
from bots.protocol import (
    PROTOCOL_VERSION,
    Message,
    ProtocolError,
    act_message,
    encode_host,
    end_message,
    parse_child_message,
    start_message,
)
from bots.registry import BotLoadError
from engine import (
    Action,
    BoardLayout,
    Clock,
    InvalidActionError,
    Observation,
    Outcome,
    RulesConfig,
    action_from_dict,
)
from engine.observation_stream import ObservationEncoder

DEFAULT_END_TIMEOUT = 2.0
EXIT_GRACE = 1.0
"""Seconds a bot process gets to exit by itself once its stdin is closed."""
CPU_LIMIT_MARGIN = 2
"""Seconds of RLIMIT_CPU beyond a game's budget (the runner's own limits strike first)."""

Spawner = Callable[[Path], BotProcess]


def seat_overhead_seconds(limits: Limits) -> float:
    """The most one seat's process may take outside its decisions in one game: its
    sandbox coming up, importing the bot and ``on_game_start``, the end-of-game message,
    then exiting (stdin closed) and its log drained."""
    return limits.spawn_seconds + limits.import_seconds + DEFAULT_END_TIMEOUT + 2 * EXIT_GRACE


class SubprocessDriver:
    """A bot file in a child process confined by ``policy`` (see :mod:`arena_runner.process`).

    The process starts at construction (so several bots import in parallel), says hello
    once its sandbox is up, and is reused for consecutive games; after a timeout, crash or
    unreadable reply it is killed and stays dead for the rest of the game. It is frozen
    whenever it is not deciding (``pause``). ``last_cpu`` is the CPU time of the last
    decision, which the match charges to the seat's time bank; ``last_offturn_cpu`` the
    CPU it used since, that is its own: while frozen (the freezer failed or was escaped),
    or anywhere between its decisions when freezing is off. The moments between a reply
    and its freeze (or the next prompt, when it decides again right away) are its
    runtime finishing the reply, bounded by the runner's own handling of that reply:
    never charged, so a bank of 0 cannot turn them into a forfeit.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        policy: SandboxPolicy | None = None,
        workdir: Path | None = None,
        name: str = "",
        end_timeout: float = DEFAULT_END_TIMEOUT,
        spawn: Spawner | None = None,
        warm: tuple[BotProcess, str] | None = None,
        cgroups: CgroupPool | None = None,
    ) -> None:
        self.path = Path(path)
        self.name = name or self.path.stem
        if policy is None:
            policy = resolve_policy() if spawn is None else SandboxPolicy(Tier.NONE)
        self.policy = policy
        self._tmp_in_tmpfs = policy.tier.uses_bwrap
        """The bot's tmp is a size-capped tmpfs (else a folder checked after each reply)."""
        self._may_leave_asleep = policy.leave_asleep and policy.sleep_holds
        """A bot asleep on its input may be left so off turn (the policy's, read once)."""
        self.end_timeout = end_timeout
        self._own_workdir = workdir is None and spawn is None
        self._workdir = workdir
        self._spawn = spawn
        self._cgroups = cgroups
        """The runner's bot cgroups (see :mod:`~arena_runner.sandbox.cgroup_pool`)."""
        self._warm = warm
        """A blank sandbox already started, and the bot file it is to import (see
        :class:`~arena_runner.runner.BotRunner`): used instead of the first spawn."""
        self._deferred_bot: str | None = None
        self._log = CappedLog(policy.limits.log_bytes)
        self._proc: BotProcess | None = None
        self._reader: LineReader | None = None
        self._pump: LogPump | None = None
        self._hello = False
        self._launch_error: str | None = None
        self._launch_kind = FaultKind.PLATFORM
        self._seat = -1
        self._stream = ObservationEncoder()
        self._exit_code: int | None = None
        self._killed = False
        self.last_cpu = 0.0
        self.last_waited = 0.0
        self.last_offturn_cpu = 0.0
        self.cpu_mark = 0.0
        """The bot's CPU time when it last stopped deciding."""
        self._frozen_cpu: float | None = None
        """The bot's CPU time when it was paused after its last reply, frozen or left
        asleep (None: not since)."""
        self._cpu_needed = 0
        """RLIMIT_CPU seconds a game needs (set by :meth:`prepare_game`)."""
        self._game_budget: float | None = None
        """The seat's wall-clock budget for the game (set by :meth:`prepare_game`)."""
        self._cpu_limit = policy.limits.cpu_seconds
        """RLIMIT_CPU of the current process."""
        self.launch()

    # --- process life ------------------------------------------------------------------

    @property
    def tier(self) -> Tier:
        return self.policy.tier

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    @property
    def process(self) -> BotProcess | None:
        return self._proc

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.popen.poll() is None

    def launch(self) -> None:
        """Start a fresh bot process; a failure is kept and reported by ``start``."""
        self._release(graceful=False)
        self._hello, self._launch_error = False, None
        self._frozen_cpu = None
        limits = self.policy.limits
        if limits.cpu_seconds < self._cpu_needed:
            limits = dataclasses.replace(limits, cpu_seconds=self._cpu_needed)
            if self._warm is not None:  # started with too small a CPU limit
                kill_bot_process(self._warm[0])
                self._warm = None
        self._cpu_limit = limits.cpu_seconds
        try:
            if self._warm is not None:
                (proc, self._deferred_bot), self._warm = self._warm, None
            elif self._spawn is not None:
                proc = self._spawn(self.path)
            else:
                if self._workdir is None or not self._workdir.exists():
                    self._workdir = make_workdir()
                policy = dataclasses.replace(self.policy, limits=limits)
                proc = spawn_bot_process(self.path, policy, self._workdir, self._cgroups)
        except BotLoadError as exc:  # a refused bot package: the bot's fault, not ours
            self._launch_error = f"the bot package is refused: {exc}"
            self._launch_kind = FaultKind.ERROR
            return
        except OSError as exc:
            self._launch_error = f"the sandbox could not start: {type(exc).__name__}: {exc}"
            self._launch_kind = FaultKind.PLATFORM
            return
        popen = proc.popen
        assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
        os.set_blocking(popen.stdin.fileno(), False)
        self._proc = proc
        self._reader = LineReader(popen.stdout.fileno(), self.policy.limits.message_bytes)
        self._pump = LogPump(popen.stderr.fileno(), self._log)

    def prepare_game(self, cpu_seconds: float) -> None:
        """Before a game in which the bot may use up to ``cpu_seconds`` of CPU (its
        wall-clock budget for the game): a reused process whose RLIMIT_CPU could not cover
        that on top of what it has used is replaced by a fresh one (whose limit does)."""
        self._cpu_needed = math.ceil(cpu_seconds) + CPU_LIMIT_MARGIN
        self._game_budget = cpu_seconds
        proc = self._proc
        if (
            proc is not None
            and self._hello
            and self.alive
            and self._cpu_limit - proc.cpu() < self._cpu_needed
        ):
            self.launch()

    def pause(self) -> None:
        """Stop the bot from running while others decide (no-op when freezing is off);
        its CPU time then is where its off-turn CPU starts to count. A bot already asleep
        reading its input pipe is left asleep where that sleep holds
        (:attr:`SandboxPolicy.sleep_holds`, unless ``leave_asleep`` is off): only the
        runner's next prompt can wake it, and freezing it would cost two wake-ups of its
        process (the freezer's ~12 µs a hand-over, against ~2 µs to read where it
        sleeps). Any other bot, running or asleep elsewhere, is
        frozen."""
        proc = self._proc
        if self.policy.freeze and proc is not None and self._hello and not proc.frozen:
            if not (self._may_leave_asleep and proc.asleep_on_input()):
                proc.freeze()
            self._frozen_cpu = proc.cpu()

    def pin(self, cpu: int) -> None:
        """Run the bot's processes on ``cpu`` only (once it has said hello): its
        interpreter, and the sandbox's own processes that wake when it is frozen or
        thawed (bwrap's init is told of every stop and continue)."""
        if self._proc is not None and self._hello:
            for pid in self._proc.chain or [self._proc.bot_pid]:
                pin_process(pid, cpu)

    def ask_to_exit(self) -> None:
        """Thaw the process and close its stdin (its runtime exits at the end of input),
        without waiting: :meth:`close` then waits for it. Asking every bot of a game
        first lets their exits overlap."""
        proc = self._proc
        if proc is not None:
            proc.thaw()
            if proc.popen.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.popen.stdin.close()

    def close(self) -> None:
        """Ask the process to exit (stdin closed), kill it if it does not, reap it."""
        self._release(graceful=True)
        if self._own_workdir and self._workdir is not None:
            remove_workdir(self._workdir)

    def _release(self, *, graceful: bool) -> None:
        if graceful:
            self.ask_to_exit()
        proc, self._proc = self._proc, None
        if proc is None:
            return
        popen = proc.popen
        proc.thaw()
        if graceful:
            wait_for_exit(popen, EXIT_GRACE)
        self._killed = popen.poll() is None
        kill_bot_process(proc)
        if self._pump is not None:  # what it wrote last, up to its end of file
            self._pump.finish(EXIT_GRACE)
        if self._reader is not None:
            self._reader.close()
        for stream in (popen.stdin, popen.stdout, popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._reader, self._pump = None, None
        self._exit_code = popen.returncode

    def take_log(self) -> str:
        """What the bot wrote to stderr since the last call (capped), including what it
        wrote just before its last reply."""
        if self._pump is not None:
            self._pump.collect()
        return self._log.take()

    # --- the protocol ------------------------------------------------------------------

    def start(
        self,
        seat: int,
        config: RulesConfig,
        layout: BoardLayout,
        seed: int,
        observation: Observation,
    ) -> Fault | None:
        self._seat = seat
        step = observation.step
        if not self.alive and self._launch_error is None:
            self.launch()
        if self._launch_error is not None:
            return self._fault(step, self._launch_kind, self._launch_error)
        if not self._hello:
            fault = self._await_hello(step)
            if fault is not None:
                return fault
        assert self._proc is not None
        self._proc.thaw()
        self._stream.reset()
        bot, self._deferred_bot = self._deferred_bot, None
        observation_data = self._stream.encode(observation)
        message = start_message(
            seat, config.to_dict(), layout.to_dict(), seed, observation_data, bot
        )
        reply = self._request(message, self.policy.limits.import_seconds, step, TimeoutClock.START)
        if isinstance(reply, Fault):
            return reply
        if reply["type"] != "ready":
            return self._unexpected(reply, "ready", step)
        if reply["protocol_version"] != PROTOCOL_VERSION:
            self._release(graceful=False)
            return self._fault(
                step,
                FaultKind.GARBAGE,
                f"the bot speaks protocol version {reply['protocol_version']}, "
                f"not {PROTOCOL_VERSION}",
            )
        self.name = reply["name"] or self.name
        self.cpu_mark = self._proc.cpu() if self._proc is not None else 0.0
        self.pause()
        return None

    def _await_hello(self, step: int) -> Fault | None:
        """Wait for the ``sandbox`` line; anything wrong before it is the platform's."""
        proc, reader = self._proc, self._reader
        assert proc is not None and reader is not None
        try:
            line = reader.read_line(time.monotonic() + self.policy.limits.spawn_seconds)
            hello = parse_child_message(line)
        except (PipeTimeout, PipeClosed, LineTooLong, ProtocolError) as exc:
            self._release(graceful=False)
            code = self._exit_code
            why = f"{type(exc).__name__} {exc}".strip()
            message = f"the sandbox failed to start ({why}, exit code {code})"
            return self._fault(step, FaultKind.PLATFORM, message, self._log.tail())
        if hello["type"] != "sandbox":
            self._release(graceful=False)
            return self._fault(step, FaultKind.PLATFORM, f"no sandbox hello: {hello['type']!r}")
        applied = (hello["jail"] or {}).get("applied", {})
        missing = [name for name in self.policy.required_layers if not applied.get(name)]
        if missing:
            self._release(graceful=False)
            message = f"sandbox tier {self.tier.name} needs {missing}, the child lacks them"
            return self._fault(step, FaultKind.PLATFORM, message, str(hello["jail"]))
        proc.find_bot()
        self._hello = True
        return None

    def act(self, observation: Observation, clock: Clock) -> Action | Fault:
        step = observation.step
        self.last_cpu = self.last_waited = 0.0
        data = self._stream.encode(observation)
        data["clock"] = clock.to_dict()
        reply = self._request(
            act_message(data), clock.decision + clock.bank, step, TimeoutClock.BANK, clock
        )
        if isinstance(reply, Fault):
            return reply
        if reply["type"] != "action":
            return self._unexpected(reply, "action", step)
        chosen = reply["action"]
        try:
            if type(chosen) is int:
                return self._stream.action(chosen)
            return action_from_dict(chosen)
        except (InvalidActionError, ValueError) as exc:
            return self._fault(step, FaultKind.GARBAGE, f"unreadable action: {exc}")

    def end(self, observation: Observation, outcome: Outcome) -> Fault | None:
        step = observation.step
        if not self.alive:
            return None
        data = self._stream.encode(observation)
        message = end_message(data, outcome.to_dict())
        reply = self._request(message, self.end_timeout, step, TimeoutClock.END)
        self.pause()
        if isinstance(reply, Fault):
            return reply
        return None if reply["type"] == "bye" else self._unexpected(reply, "bye", step)

    def _request(
        self,
        message: Message,
        budget: float,
        step: int,
        limit: TimeoutClock,
        clock: Clock | None = None,
    ) -> Message | Fault:
        """Send one message and read the one reply; an ``error`` reply becomes a fault.

        ``budget`` is CPU time: the bot may take up to ``budget`` seconds of CPU (the
        clock ``limit`` names) and, when a ``clock`` is given, ``decision + bank + slack``
        seconds of wall clock (:attr:`TimeoutClock.DECISION`), or what is left of the
        game's wall-clock budget if less (:attr:`TimeoutClock.GAME`)."""
        proc, reader = self._proc, self._reader
        if proc is None or reader is None or proc.popen.stdin is None:
            return self._fault(step, FaultKind.CRASH, "the bot process is not running")
        if reader.has_pending():
            self._release(graceful=False)
            return self._fault(step, FaultKind.GARBAGE, "it wrote to the protocol pipe unasked")
        # unpredictable: a reply written ahead of its prompt can never match it
        seq = message["seq"] = int.from_bytes(os.urandom(4), "little")
        began, (cpu0, waited0) = time.monotonic(), proc.schedstat()
        self.last_offturn_cpu = self._own_offturn(cpu0) if clock is not None else 0.0
        self._frozen_cpu = None
        cap, wall = budget, limit
        if clock is not None:
            cap, wall = decision_wall_cap(clock.decision, clock.bank), TimeoutClock.DECISION
            if clock.game is not None and clock.game < cap:
                cap, wall = max(clock.game, 0.0), TimeoutClock.GAME
        deadline = began + min(budget, cap)
        ran_out: tuple[TimeoutClock, str] | None = None
        line = b""
        try:
            frame = encode_host(message)
            write_all(proc.popen.stdin.fileno(), frame, began + cap, then=proc.thaw)
            while True:
                try:
                    line = reader.read_line(deadline)
                    break
                except PipeTimeout:
                    used, now = proc.cpu() - cpu0, time.monotonic()
                    if used >= budget:
                        ran_out = self._timeout(limit, budget, clock, used)
                        break
                    # the wall clock the bot spent waiting for a CPU (the machine's
                    # load) moves the cap back: it is not the bot's
                    end = began + cap + (proc.waited() - waited0)
                    if now >= end:
                        ran_out = self._timeout(wall, cap, clock)
                        break
                    deadline = min(end, now + max(budget - used, 0.001))
        except PipeTimeout:  # the write did not get through in time
            ran_out = self._timeout(wall, cap, clock)
        except PipeClosed:
            self.last_cpu = max(0.0, proc.cpu() - cpu0)
            return self._crashed(step)
        except LineTooLong:
            self._release(graceful=False)
            limit_bytes = self.policy.limits.message_bytes
            return self._fault(step, FaultKind.GARBAGE, f"a reply longer than {limit_bytes} bytes")
        if ran_out is not None:
            which, text = ran_out
            self.last_cpu = max(0.0, proc.cpu() - cpu0)
            self.last_waited = max(0.0, proc.waited() - waited0)
            self._release(graceful=False)
            return self._fault(step, FaultKind.TIMEOUT, text, clock=which)
        self.cpu_mark, waited = proc.schedstat()
        self.last_cpu = self.cpu_mark - cpu0
        self.last_waited = max(0.0, waited - waited0)
        overfull = self._tmp_overfull(proc)
        if overfull:
            self._release(graceful=False)
            return self._fault(step, FaultKind.RESOURCE, overfull)
        try:
            reply = parse_child_message(line)
        except ProtocolError as exc:
            self._release(graceful=False)
            return self._fault(step, FaultKind.GARBAGE, f"unreadable reply: {exc}")
        if reply.get("seq") != seq:
            self._release(graceful=False)
            return self._fault(
                step, FaultKind.GARBAGE, "a reply to another prompt (its seq is not this one's)"
            )
        if reply["type"] != "error":
            return reply
        if reply["where"] == "import":
            self._release(graceful=True)
        kind = classify_error(reply["message"])
        return self._fault(step, kind, reply["message"], reply["traceback"] or "")

    def _own_offturn(self, cpu_now: float) -> float:
        """The bot's own CPU since its last reply (see the class): from its freeze on, or
        all of it where freezing is off; none when it was never frozen in between."""
        if self._frozen_cpu is not None:
            return max(0.0, cpu_now - self._frozen_cpu)
        if not self.policy.freeze:
            return max(0.0, cpu_now - self.cpu_mark)
        return 0.0

    def _tmp_overfull(self, proc: BotProcess) -> str | None:
        """Below the bwrap tiers a bot's tmp is a folder of the worker's disk, bounded per
        file by RLIMIT_FSIZE only: after every reply its whole size is checked against
        the tmpfs size the bwrap tiers give (a message if over, else None)."""
        if self._tmp_in_tmpfs or proc.seat_dir is None:
            return None
        cap = self.policy.limits.tmp_bytes
        used = disk_usage(proc.seat_dir.parent / "tmp")
        if used <= cap:
            return None
        return f"its tmp holds {used:,} bytes, over its {cap:,} (files it wrote)"

    def _crashed(self, step: int) -> Fault:
        self._release(graceful=True)
        kind, how = classify_death(self._exit_code, self.tier, killed=self._killed)
        return self._fault(step, kind, f"the bot process {how}", self._log.tail())

    def _unexpected(self, reply: Message, expected: str, step: int) -> Fault:
        self._release(graceful=False)
        message = f"expected a {expected!r} reply, got {reply['type']!r}"
        return self._fault(step, FaultKind.GARBAGE, message)

    def _timeout(
        self, which: TimeoutClock, seconds: float, clock: Clock | None, used: float | None = None
    ) -> tuple[TimeoutClock, str]:
        """Which clock ran out and its message (``seconds``: that clock's figure)."""
        if which is TimeoutClock.DECISION and clock is not None:
            return which, decision_wall(seconds, clock.decision, clock.bank)
        if which is TimeoutClock.BANK and clock is not None:
            return which, decision_cpu(used or seconds, clock.decision, clock.bank)
        if which is TimeoutClock.GAME:
            return which, game_spent(self._game_budget, seconds)
        if which is TimeoutClock.START:
            return which, start_up(seconds, used)
        return which, end_of_game(seconds)

    def _fault(
        self,
        step: int,
        kind: FaultKind,
        message: str,
        detail: str = "",
        clock: TimeoutClock | None = None,
    ) -> Fault:
        """A fault, its texts naming the author's own files rather than where the sandbox
        shows them (``/bot/x.py`` becomes the path the bot was given as)."""
        own = self.path if self.path.is_dir() else self.path.parent
        seen_as = f"{BOT_MOUNT}/"
        message = message.replace(seen_as, f"{own}/")
        detail = detail.replace(seen_as, f"{own}/")
        return Fault(self._seat, step, kind, message, detail, clock)
