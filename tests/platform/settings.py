"""The settings the test suite runs Django with: the real PostgreSQL of this machine (the
server mode's database; pytest-django makes a ``test_`` database per test worker) and a
temporary data folder. No broker here: tests that need Celery start a real worker and
point the app at Redis themselves (see ``celery_worker.py``)."""

import os
import tempfile

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/catan_arena")
os.environ.setdefault("CATAN_ARENA_DATA", tempfile.mkdtemp(prefix="catan-arena-test-"))
os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-secret")
# Most tests count the bots on the ladder: the house bots join only where a test asks
# (``settings.HOUSE_BOTS_ON_LADDER = True``; for a worker, the variable set to true).
os.environ.setdefault("CATAN_ARENA_HOUSE_BOTS_ON_LADDER", "false")

# Sign-up tests expect plain accounts: the first-account rule is tested where it is asked.
os.environ.setdefault("CATAN_ARENA_FIRST_ACCOUNT_ORGANIZES", "false")

from catan_arena.settings import *  # noqa: F403
