"""``manage.py ladder``: show the ladder; ``--games N`` first plays N ladder games.

Embedded default: the games are made by the same matchmaker beat runs in server mode
(at full speed, even on a settled ladder; the house bots join unless
``CATAN_ARENA_HOUSE_BOTS_ON_LADDER`` is off) and played here on local workers (each bot
in its own sandboxed process). Server mode: the matchmaker runs on beat and tops up as
matches finish; this command only shows the table and the ladder's pace."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arena_cli.output import fitted_table
from catan_arena.ladder.models import LadderSettings
from catan_arena.ladder.pace import FULL
from catan_arena.ladder.selectors import matchmaker_matches, pace, ranked
from catan_arena.ladder.services import fill_ladder
from catan_arena.matches.embedded import default_processes, run_embedded
from catan_arena.matches.models import Match
from catan_arena.ratings.selectors import provisional


class Command(BaseCommand):
    help = "Show the ladder (with --games N: play N ladder games here first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=0, help="ladder games to play first")
        parser.add_argument("--processes", type=int, default=None, help="local workers")

    def handle(self, *args: Any, **options: Any) -> None:
        console = Console(highlight=False)
        games = options["games"]
        if games < 0:
            raise CommandError("--games must be 0 or more")
        if games and not settings.EMBEDDED:
            raise CommandError("in server mode the ladder plays on the workers (beat)")
        if games:
            self._play(games, options["processes"] or default_processes(), console)
        self._print(console)

    def _play(self, games: int, processes: int, console: Console) -> None:
        if LadderSettings.current().paused:
            raise CommandError("the ladder is paused (resume it in the admin)")
        played = 0
        columns = (TextColumn("ladder games"), BarColumn(), MofNCompleteColumn())
        with Progress(*columns, TimeElapsedColumn(), console=console) as bar:
            task = bar.add_task("games", total=games)
            while played < games:
                fill_ladder(full_speed=True)  # finished matches top it up too (on commit)
                queued = matchmaker_matches().filter(status=Match.Status.QUEUED).order_by("id")
                ids = list(queued.values_list("pk", flat=True)[: games - played])
                if not ids:
                    raise CommandError("no table can be made: 3 bots of different authors needed")
                run_embedded(ids, processes, lambda *_: bar.advance(task))
                played += len(ids)

    def _print(self, console: Console) -> None:
        console.print("Ladder")
        table = fitted_table(
            ("#", "bot", "author", "Elo", "μ ± σ", "games", "win %"), text=("bot", "author")
        )
        for rank, rating in enumerate(ranked(), 1):  # the versions that play, as the site
            version = rating.version
            elo = f"{rating.elo:.0f}" + ("?" if provisional(rating) else "")
            table.add_row(
                str(rank),
                escape(str(version)),
                escape(version.bot.owner.username),
                elo,
                f"{rating.mu:.1f} ± {rating.sigma:.1f}",
                str(rating.games),
                f"{100 * rating.wins / rating.games:.0f}" if rating.games else "-",
            )
        console.print(table)
        console.print("Elo marked ? is provisional (fewer than 20 games: a larger K).")
        settings_row = LadderSettings.current()
        now = pace(settings_row)
        if settings_row.paused:
            console.print("The ladder is paused.")
        elif now.mode == FULL:
            console.print(
                f"Pace: full speed ({now.waiting} version(s) under "
                f"{settings_row.settled_games} games)."
            )
        else:
            console.print(
                f"Pace: settled, in the background (one match per "
                f"{settings_row.background_interval_seconds:g} s)."
            )
