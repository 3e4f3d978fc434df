"""The settings the test suite runs Django with: the suite's own PostgreSQL (the server
mode's database, started for this run by ``tests.support.services``; pytest-django makes
a ``test_`` database per test worker) and a temporary data folder. No broker here: tests
that need Celery start a real worker and point the app at the suite's Redis themselves
(see ``tests/support/celery_worker.py``)."""

import os
import tempfile

from tests.support.services import suite_services

# Whatever the shell named, the run talks to its own servers only: its PostgreSQL, and
# its Redis where a test asks for one (Celery would take a CELERY_BROKER_URL left in the
# environment over its own configuration). The run's other processes keep what their
# parent gave them (a test's own database, broker).
_services = suite_services()
if _services.owner == os.getpid():
    os.environ["DATABASE_URL"] = _services.postgres_url("catan_arena")
    for _name in ("CELERY_BROKER_URL", "CACHE_URL"):
        os.environ.pop(_name, None)
os.environ.setdefault("DATABASE_URL", _services.postgres_url("catan_arena"))
os.environ.setdefault("CATAN_ARENA_DATA", tempfile.mkdtemp(prefix="catan-arena-test-"))
os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-secret")
# Most tests count the bots on the ladder: the house bots join only where a test asks
# (``settings.HOUSE_BOTS_ON_LADDER = True``; for a worker, the variable set to true).
os.environ.setdefault("CATAN_ARENA_HOUSE_BOTS_ON_LADDER", "false")

# The suite's parallel tests share the cores at niceness 0: a worker (and its bots) below
# them would be starved into time-outs. The priority is tested where it is asked
# (tests/platform/test_worker_priority.py); the load test keeps the production default.
os.environ.setdefault("CATAN_ARENA_WORKER_NICENESS", "0")

# Sign-up tests expect plain accounts: the first-account rule is tested where it is asked.
os.environ.setdefault("CATAN_ARENA_FIRST_ACCOUNT_ORGANIZES", "false")

from catan_arena.settings import *  # noqa: E402, F403
