"""``manage.py tournament``: run a tournament (round robin by default, or duplicate, or
Swiss) and print its standings (the main job).

Embedded default (no broker): the matches are played here, on local worker processes
(one per core), each bot in its own sandboxed process. Server mode: the matches go to
the Celery workers and this command follows their progress."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from arena_cli.output import fitted_table
from catan_arena.core.commands import AppCommand
from catan_arena.core.limits import TABLE_SIZES
from catan_arena.matches.embedded import default_processes, run_embedded
from catan_arena.matches.models import Match
from catan_arena.matches.services import MatchLimits, requeue_stuck_matches
from catan_arena.submissions.models import Bot
from catan_arena.submissions.selectors import playing_version
from catan_arena.submissions.services import register_builtins
from catan_arena.tournaments.models import Tournament
from catan_arena.tournaments.selectors import (
    head_to_head_table,
    progress,
    standings,
    strengths,
)
from catan_arena.tournaments.services import TournamentSpec, run_now


class Command(AppCommand):
    help = "Run a round-robin tournament (default: the built-in bots) and print the standings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "bots", nargs="*", help="bot names (their newest active version); default: built-ins"
        )
        parser.add_argument("--name", default="", help="the tournament's name")
        parser.add_argument("--cycles", type=int, default=4, help="tables per pair (default 4)")
        parser.add_argument("--table-size", type=int, choices=TABLE_SIZES, default=4)
        parser.add_argument(
            "--decision-seconds", type=float, default=None, help="CPU seconds per decision"
        )
        parser.add_argument("--processes", type=int, default=None, help="local workers")
        parser.add_argument(
            "--no-ladder", action="store_true", help="do not let its matches move the ladder"
        )
        formats = parser.add_mutually_exclusive_group()
        formats.add_argument(
            "--duplicate",
            action="store_true",
            help="duplicate format: every rotation of a table replays the same board and dice",
        )
        formats.add_argument(
            "--swiss", action="store_true", help="Swiss format: tables grouped by standing"
        )
        parser.add_argument(
            "--rounds", type=int, default=None, help="Swiss: rounds (default: enough for the field)"
        )
        parser.add_argument(
            "--games-per-table", type=int, default=1, help="Swiss: games per table, seats rotated"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        console = Console(highlight=False)
        register_builtins()
        requeue_stuck_matches()
        versions = []
        for name in options["bots"] or ["heuristic", "random", "search"]:
            bot = Bot.objects.filter(name=name).first()
            version = playing_version(bot) if bot else None
            if version is None:
                raise CommandError(f"no active version of a bot named {name!r}")
            versions.append(version)
        form = (
            Tournament.Format.SWISS
            if options["swiss"]
            else Tournament.Format.DUPLICATE
            if options["duplicate"]
            else Tournament.Format.ROUND_ROBIN
        )
        spec = TournamentSpec(
            options["name"]
            or f"{Tournament.Format(form).label.capitalize()} of {len(versions)} bots",
            format=form,
            table_size=options["table_size"],
            cycles=options["cycles"],
            rounds=options["rounds"],
            games_per_table=options["games_per_table"],
            ladder=not options["no_ladder"],
            limits=MatchLimits.asked(options["decision_seconds"]),
        )
        tournament = run_now(spec, versions)
        total = progress(tournament).total
        where = "on Celery workers" if not settings.EMBEDDED else "on local workers"
        console.print(
            f"{escape(tournament.name)} (tournament {tournament.pk}): {total} games among "
            f"{len(versions)} bots, {where}; every bot in its own sandboxed process"
        )
        if settings.EMBEDDED:
            self._play_here(tournament, options["processes"] or default_processes(), console)
        else:
            self._follow(tournament, console)
        self._print(tournament, console)

    def _progress(self, console: Console) -> Progress:
        return Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )

    def _play_here(self, tournament: Tournament, processes: int, console: Console) -> None:
        queued = Match.objects.filter(status=Match.Status.QUEUED)
        leftover = list(
            queued.exclude(tournament=tournament).order_by("id").values_list("pk", flat=True)
        )
        if leftover:
            console.print(f"first, {len(leftover)} games left unfinished by an earlier run")
        problems: list[str] = []

        with self._progress(console) as bar:
            task = bar.add_task("games", total=len(leftover) + progress(tournament).total)

            def report(match_id: int, status: str | None, error: BaseException | None) -> None:
                if error is not None:
                    problems.append(f"match {match_id}: {type(error).__name__}: {error}")
                elif status in (Match.Status.FAILED, Match.Status.QUEUED):
                    problems.append(f"match {match_id}: {status} (see its attempt log)")
                if status != Match.Status.QUEUED:
                    bar.advance(task)

            ids = leftover + list(
                queued.filter(tournament=tournament).order_by("id").values_list("pk", flat=True)
            )
            elsewhere = tournament.matches.filter(status=Match.Status.RUNNING)
            while ids or elsewhere.exists():  # a Swiss tournament queues round by round
                if ids:
                    run_embedded(ids, processes, report)
                else:  # taken by other local workers (a `make serve` on the same data)
                    time.sleep(0.5)
                ids = list(
                    queued.filter(tournament=tournament).order_by("id").values_list("pk", flat=True)
                )
        for problem in problems:
            console.print(f"[yellow]{escape(problem)}[/]")

    def _follow(self, tournament: Tournament, console: Console) -> None:
        with self._progress(console) as bar:
            task = bar.add_task("games", total=progress(tournament).total)
            while True:
                now = progress(tournament)
                bar.update(task, completed=now.done)
                if now.done >= now.total:
                    break
                time.sleep(1.0)

    def _print_head_to_head(self, tournament: Tournament, console: Console) -> None:
        """Row ahead of column / games shared (up to 10 entries)."""
        rows = standings(tournament)
        if len(rows) > 10:
            return
        pairs = head_to_head_table(tournament)
        columns = [str(column) for column in range(1, len(rows) + 1)]
        console.print("Head to head: games the row placed ahead of the column / shared")
        table = fitted_table(["", *columns], text=("",))
        for rank, row in enumerate(rows, 1):
            cells = []
            for other in rows:
                record = pairs.get((row.version_id, other.version_id))
                cells.append("" if record is None else f"{record.ahead}/{record.games}")
            table.add_row(f"{rank} {escape(row.name)}", *cells)
        console.print(table)

    def _print(self, tournament: Tournament, console: Console) -> None:
        tournament.refresh_from_db()
        done = progress(tournament)
        columns = ("#", "bot", "games", "wins", "win%", "pts", "VP", "faults", "strength")
        console.print(f"{escape(tournament.name)}: standings ({tournament.status})")
        table = fitted_table((*columns, "95% CI", "tier"))
        fitted = strengths(tournament)
        for rank, row in enumerate(standings(tournament), 1):
            fit = fitted[row.version_id]
            table.add_row(
                str(rank),
                escape(row.name),
                str(row.games),
                str(row.wins),
                f"{100 * row.win_rate:.0f}",
                str(row.placing_points),
                f"{row.mean_points:.2f}",
                str(row.faults),
                f"{fit.strength:+.2f}",
                f"{fit.low:+.2f} to {fit.high:+.2f}",
                str(fit.group),
            )
        console.print(table)
        self._print_head_to_head(tournament, console)
        console.print(
            f"{done.finished} games finished, {done.failed} failed; "
            f"pair imbalance {tournament.pair_imbalance} (0: every pair met equally often); "
            "pts: placing points; VP: mean victory points; strength: Plackett–Luce "
            "log-strength, its 95% interval beside it; entries of one tier are statistically tied"
        )
        if settings.EMBEDDED:
            console.print(
                "Next: [bold]make serve[/] runs the whole platform (the site, the ladder, "
                "uploads, tournaments) and shows this one at "
                f"http://127.0.0.1:8000/tournaments/{tournament.pk}/"
            )
