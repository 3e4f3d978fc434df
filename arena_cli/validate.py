"""``catan-arena validate FILE``: check a bot file the way the platform does on upload.

The file is imported in its own sandboxed process (the same :class:`BotRunner` as
``play`` and the workers; the effective tier is reported), which must find exactly one
``Player``, then plays a smoke game against three trusted ``random`` bots. Any failure
is explained in plain words (exit 1); a valid bot gets a short report (exit 0); a
sandbox failure (not the bot's fault) gives no verdict (exit 3).
"""

from __future__ import annotations

import argparse
import sys

from arena_runner import BotRunner, SandboxUnavailable, resolve_policy
from arena_runner.validation import validate_bot
from bots.registry import BotLoadError, resolve_bot


def run_validate(args: argparse.Namespace) -> int:
    """Validate ``args.file``; print the verdict; return the exit code."""
    if args.timeout <= 0:
        sys.stderr.write("error: --timeout must be positive\n")
        return 2
    try:
        path = resolve_bot(args.file)
    except BotLoadError as exc:
        return _invalid(args.file, str(exc))
    try:
        tier = getattr(args, "sandbox_tier", None)
        runner = BotRunner(resolve_policy(tier, trusted_local=tier is not None))
    except SandboxUnavailable as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    try:
        verdict = validate_bot(path, runner, seed=args.seed, decision_timeout=args.timeout)
    finally:
        runner.close()
    if verdict.valid is None:
        return _platform_error(
            verdict.reason.removeprefix("the sandbox failed (not the bot's fault): ")
        )
    if not verdict.valid:
        return _invalid(args.file, verdict.reason, verdict.detail)
    lines = [
        f"valid: {args.file} (bot {verdict.name!r})",
        *(f"  {line}" for line in verdict.report),
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _platform_error(reason: str) -> int:
    """The sandbox, not the bot, failed: no verdict (exit 3)."""
    sys.stderr.write(f"error: the bot could not be checked on this host: {reason}\n")
    return 3


def _invalid(name: str, reason: str, detail: str = "") -> int:
    lines = [f"invalid: {name}", f"  reason: {reason}"]
    if detail:
        lines += ["  details:", *(f"    {line}" for line in detail.splitlines())]
    sys.stdout.write("\n".join(lines) + "\n")
    return 1
