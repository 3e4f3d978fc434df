"""The task queues and the task names sent to them (no Django imports: the settings read
this). Validations have a queue of their own, consumed by workers reserved for it, so an
upload is never validated behind a queue of long matches."""

from __future__ import annotations

MATCH_QUEUE = "celery"
"""Matches (Celery's default queue name: a plain ``celery worker`` consumes it)."""
VALIDATION_QUEUE = "validation"
"""The quick work that must not wait behind matches: uploads' validations, the ladder's
ratings and top-ups, the pages' caches; ``celery -A catan_arena worker -Q validation``
reserves a worker."""
MATCH_PERSON = 0
"""The priority of a person's game: someone sits at the table in a browser. Taken first
(lower first, as Celery's Redis transport orders its priority steps 0, 3, 6, 9)."""
MATCH_WAITED_FOR = 3
"""The priority of a match someone waits for: a tournament's, an A/B test's, and a
ladder table seating a newcomer (its first games are what its author watches for)."""
MATCH_BACKGROUND = 9
"""The priority of the ladder's routine matches among placed versions."""
ALL_QUEUES = f"{MATCH_QUEUE},{VALIDATION_QUEUE}"
"""What an ordinary worker consumes (``-Q``): matches, and validations when it is free."""

VALIDATE_TASK = "catan_arena.submissions.tasks.validate_version_task"
PLAY_TASK = "catan_arena.matches.tasks.play_match_task"
FILL_LADDER_TASK = "catan_arena.ladder.tasks.fill_ladder_task"
WARM_PAGES_TASK = "catan_arena.web.tasks.warm_pages_task"
RATE_TASK = "catan_arena.ratings.tasks.apply_ready_ratings_task"
"""Sent by name through the project's own Celery app: the sending process (web, beat,
a test) needs neither the task modules imported nor to be Celery's "current" app."""
