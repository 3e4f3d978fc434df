"""``catan-arena validate FILE``: check a bot exactly as the platform does on upload.

The same :class:`~arena_runner.validation_policy.ValidationPolicy` as the server's
defaults — the package caps, the clock (per decision, bank, the game's wall-clock
budget), the rules, the smoke game(s) against ``random`` bots — run by the same
:func:`~arena_runner.validation.validate_bot` in its own sandboxed process (the same
:class:`BotRunner` as ``play`` and the workers; the effective tier is reported). Each run
plays a fresh seed, printed, like the server's (``--seed`` repeats one). Any failure is
explained in plain words (exit 1); a valid bot gets a short report (exit 0); a sandbox
failure (not the bot's fault) gives no verdict (exit 3).
"""

from __future__ import annotations

import argparse
import sys

from arena_runner import BotRunner, SandboxUnavailable, resolve_policy
from arena_runner.validation import PACKAGE, validate_bot
from bots.registry import BotLoadError, resolve_bot
from engine.rng import new_seed


def run_validate(args: argparse.Namespace) -> int:
    """Validate ``args.file``; print the verdict; return the exit code."""
    try:
        path = resolve_bot(args.file)
    except BotLoadError as exc:
        return _invalid(args.file, str(exc), PACKAGE)
    try:
        tier = getattr(args, "sandbox_tier", None)
        runner = BotRunner(resolve_policy(tier, trusted_local=tier is not None))
    except SandboxUnavailable as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    seed = args.seed if args.seed is not None else new_seed()
    try:
        verdict = validate_bot(path, runner, seed=seed)
    finally:
        runner.close()
    if verdict.valid is None:
        return _platform_error(
            verdict.reason.removeprefix("the sandbox failed (not the bot's fault): ")
        )
    if not verdict.valid:
        return _invalid(args.file, verdict.reason, verdict.kind, verdict.detail, verdict.report)
    lines = [
        f"valid: {args.file} (bot {verdict.name!r})",
        *(f"  {line}" for line in verdict.report),
        f"  repeat this check: catan-arena validate {args.file} --seed {seed}",
    ]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _platform_error(reason: str) -> int:
    """The sandbox, not the bot, failed: no verdict (exit 3)."""
    sys.stderr.write(f"error: the bot could not be checked on this host: {reason}\n")
    return 3


def _invalid(
    name: str, reason: str, kind: str, detail: str = "", report: tuple[str, ...] = ()
) -> int:
    lines = [f"invalid: {name}", f"  reason: {reason}", f"  kind: {kind}"]
    lines += [f"  {line}" for line in report]
    if detail:
        lines += ["  details:", *(f"    {line}" for line in detail.splitlines())]
    sys.stdout.write("\n".join(lines) + "\n")
    return 1
