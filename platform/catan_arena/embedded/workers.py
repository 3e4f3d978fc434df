"""The worker processes of ``manage.py serve`` (the embedded default): each takes queued
work from the database, oldest first, and calls the very services a Celery worker's
tasks call (:func:`~catan_arena.matches.services.run_match`,
:func:`~catan_arena.submissions.services.validate_version`). Match workers and
validation workers are separate processes, so an upload never waits behind a match.

A worker stops on SIGTERM (its supervisor's): the match or validation in hand is put
back for the next start, uncounted, and its bots are killed on the way out. Ctrl-C in
the terminal reaches the supervisor, which stops the workers in order."""

from __future__ import annotations

import contextlib
import ctypes
import logging
import signal
import time
from collections.abc import Callable
from types import FrameType

log = logging.getLogger(__name__)

IDLE_POLL_SECONDS = 0.5
"""How often an idle worker looks for queued work."""
UNAVAILABLE_RETRY_SECONDS = 30.0
"""A validation the sandbox could not run is tried again after this long."""
PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl
"""Resolved at import, so :func:`die_with_parent` loads nothing when it runs (it may run
in a child between fork and exec, as a ``preexec_fn``)."""


class Stop(BaseException):
    """Raised in a worker by SIGTERM: stop now (a BaseException, so no ``except
    Exception`` on the way swallows it)."""


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask the kernel to send ``sig`` to this process when its parent dies (the
    supervisor killed with SIGKILL leaves no worker behind)."""
    _prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def _on_term(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the clean-up must finish
    raise Stop


def _enter() -> None:
    """Common start of a worker process: Django set up, signals as described above."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the terminal's Ctrl-C is the supervisor's
    signal.signal(signal.SIGTERM, _on_term)
    die_with_parent()
    from catan_arena.matches import local_worker

    local_worker.setup()


def match_worker() -> None:
    """Play queued matches until stopped."""
    _enter()
    from catan_arena.matches.play import close_worker_runner, worker_runner
    from catan_arena.matches.selectors import next_queued_match
    from catan_arena.matches.services import release_interrupted, run_match, worker_name

    me = worker_name()
    try:
        worker_runner()  # blank sandboxes started now, not in the first match
        _loop(
            next_queued_match, lambda pk: run_match(pk, me), lambda pk: release_interrupted(pk, me)
        )
    finally:
        close_worker_runner()


def validation_worker() -> None:
    """Validate uploaded versions until stopped (a sandbox failure: tried again later)."""
    _enter()
    from catan_arena.submissions.selectors import next_pending_version
    from catan_arena.submissions.services import (
        ValidationUnavailable,
        release_validation,
        validate_version,
    )

    retry_at: dict[int, float] = {}

    def next_version() -> int | None:
        now = time.monotonic()
        for pk in [pk for pk, at in retry_at.items() if at <= now]:
            del retry_at[pk]
        return next_pending_version(skip=retry_at)

    def validate(pk: int) -> None:
        try:
            validate_version(pk)
        except ValidationUnavailable as exc:
            log.warning("version %s: validation could not run (%s); trying again later", pk, exc)
            retry_at[pk] = time.monotonic() + UNAVAILABLE_RETRY_SECONDS

    _loop(next_version, validate, release_validation)


def _loop(
    take: Callable[[], int | None],
    work: Callable[[int], object],
    release: Callable[[int], object],
) -> None:
    """Take the next piece of work and do it; idle, poll; on :class:`Stop`, release the
    piece in hand and return."""
    current: int | None = None
    try:
        while True:
            current = _quietly(take)
            if current is None:
                time.sleep(IDLE_POLL_SECONDS)
                continue
            try:
                work(current)
            except Exception:  # the service recorded what it could; this worker carries on
                log.exception("work on %s failed", current)
            current = None
    except Stop:
        if current is not None:
            with contextlib.suppress(Exception):
                release(current)


def _quietly(take: Callable[[], int | None]) -> int | None:
    """``take()``, or None when the database is busy or away for a moment."""
    try:
        return take()
    except Exception:
        log.exception("could not look for work")
        time.sleep(IDLE_POLL_SECONDS)
        return None
