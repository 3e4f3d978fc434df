"""Settings, from the environment (read strictly by :mod:`arena_runner.env`, URLs parsed
by django-environ); a bad value stops start-up with a message naming the variable.

With no environment at all this is the **embedded default**: SQLite in the data folder
(``CATAN_ARENA_DATA``, default ``.data/`` beside ``manage.py``), no broker (matches run in
local worker processes, see :mod:`catan_arena.matches.embedded`). A **server** sets
``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL`` (Redis).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured
from django.urls.converters import SlugConverter

from arena_runner.clock_limits import (
    DECISION_BOUND,
    DECISION_SECONDS,
    TIME_BANK_BOUND,
    TIME_BANK_SECONDS,
)
from arena_runner.env import env_bool, env_choice, env_float, env_int, env_path, env_str
from arena_runner.policy import check_environment
from arena_runner.validation_policy import UPLOAD_CAPS
from catan_arena.core.params import MAX_ID
from catan_arena.core.queues import MATCH_QUEUE, RATE_TASK, VALIDATION_QUEUE
from catan_arena.core.rates import parse_rate

BASE_DIR = Path(__file__).resolve().parents[2]
"""The checkout: ``manage.py``, ``templates/``, ``platform/``."""


def positive_float(name: str, default: float) -> float:
    return env_float(name, default, above=0)


def positive_int(name: str, default: int) -> int:
    return env_int(name, default, at_least=1)


check_environment()  # the sandbox variables a worker reads at run, checked now
DATA_DIR = env_path("CATAN_ARENA_DATA", BASE_DIR / ".data").absolute()
DATA_DIR.mkdir(parents=True, exist_ok=True)
BOT_CACHE_DIR = DATA_DIR / "bot-cache"
"""Where a worker writes the versions it plays, by sha256 (the database holds them)."""


def _secret_key() -> str:
    """``DJANGO_SECRET_KEY``; on the embedded default one made once and kept in the data
    folder (readable by its owner only)."""
    key = env_str("DJANGO_SECRET_KEY", "")
    if key:
        return key
    path = DATA_DIR / "secret-key"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = [
    host.strip()
    for host in env_str("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",")
    if host.strip()
]

# Served over HTTPS (a server behind its TLS proxy): secure cookies, HSTS, HTTPS only.
# Off by default: the embedded default's site is plain http://127.0.0.1.
HTTPS = env_bool("CATAN_ARENA_HTTPS", default=False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # the container's own health check
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = positive_int("CATAN_ARENA_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("CATAN_ARENA_HSTS_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("CATAN_ARENA_HSTS_PRELOAD", default=True)
    CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS if host != "*"]
SESSION_COOKIE_HTTPONLY = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # The domain apps in their layer order (docs/ARCHITECTURE.md): receivers of the
    # match-finished hook run in this order, so ratings come before the competitions.
    "catan_arena.accounts",
    "catan_arena.submissions",
    "catan_arena.matches",
    "catan_arena.ratings",
    "catan_arena.ladder",
    "catan_arena.tournaments",
    "catan_arena.abtests",
    "catan_arena.embedded",
    "catan_arena.api",
    "catan_arena.web",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",  # the log-in limit of every door (last: its checks see the other apps)
]

MIDDLEWARE = [
    "catan_arena.core.timing.ServerTimingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy on every response
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, in every process
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: a locked-out try answers 429
]

# Log-in limit (django-axes) on every door that authenticates with a password: the
# site's form, the API's token exchange, the admin. Failures are counted per account and
# per real client address in the shared cache; either count at the limit refuses every
# try (the right password too) until the cool-off after the last counted failure ends.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses before a password is hashed
    "django.contrib.auth.backends.ModelBackend",
]
TRUSTED_PROXIES = env_int("CATAN_ARENA_TRUSTED_PROXIES", 0, at_least=0)
"""Proxies in front of the site that append the address they saw to X-Forwarded-For:
the client's address is the one the outermost of them saw (0: the connecting address)."""
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_FAILURE_LIMIT = positive_int("CATAN_ARENA_LOGIN_FAILURES", 10)
AXES_COOLOFF_TIME = timedelta(minutes=positive_int("CATAN_ARENA_LOGIN_COOLOFF_MINUTES", 10))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # tries while locked do not extend it
AXES_CLIENT_IP_CALLABLE = "catan_arena.core.throttle.client_address"
AXES_USERNAME_CALLABLE = "catan_arena.accounts.lockout.username_of_attempt"
AXES_LOCKOUT_CALLABLE = "catan_arena.accounts.lockout.locked_out_response"
AXES_ENABLE_ADMIN = False  # the counts live in the cache, not in axes' tables
AXES_VERBOSE = False

# Mail (password resets): the console on the embedded default; a server sets EMAIL_URL
# (django-environ: smtp://, smtp+tls://user:password@host:587, consolemail://).
vars().update(environ.Env.email_url_config(env_str("EMAIL_URL", "consolemail://")))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")
PASSWORD_RESET_TIMEOUT = 3 * 3600  # seconds a reset link stays good

# Content-Security-Policy (django-csp): the site's scripts and styles are static files
# only, nothing inline (htmx's indicator styles are off: base.html's htmx-config); SVG
# is drawn with presentation attributes. The one relaxation: the API's Swagger UI
# (``api/urls.py``) may use its template's inline <style>.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "img-src": [csp.SELF, "data:"],  # the blank favicon; Swagger UI's icons
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}

ROOT_URLCONF = "catan_arena.urls"
WSGI_APPLICATION = "catan_arena.wsgi.application"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "web:log-in"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database() -> dict[str, Any]:
    default = f"sqlite:///{DATA_DIR / 'db.sqlite3'}"
    db: dict[str, Any] = environ.Env.db_url_config(env_str("DATABASE_URL", default))
    if db["ENGINE"] == "django.db.backends.sqlite3":
        # Several local worker processes write: wait for the lock, take it at BEGIN.
        db["OPTIONS"] = {
            "timeout": 60,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    else:
        # A worker or web process keeps its connection between tasks and requests (a
        # new PostgreSQL connection forks a backend each time); checked before reuse, so
        # a restarted server costs one reconnect. ``?conn_max_age=0`` in the URL: off.
        db.setdefault("CONN_MAX_AGE", 300)
        db.setdefault("CONN_HEALTH_CHECKS", True)
    return db


DATABASES = {"default": _database()}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: a changed password revokes the user's API tokens (every path).
    {"NAME": "catan_arena.accounts.passwords.RevokeTokensOnPasswordChange"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env_path("CATAN_ARENA_STATIC_ROOT", DATA_DIR / "static")
# whitenoise serves the static files from every web process. An image that ran
# collectstatic (the Dockerfile) sets CATAN_ARENA_STATIC_MANIFEST: compressed files with
# hashed names, cached for ever. Elsewhere (the embedded default, the tests) they are
# served straight from the apps' folders, no collectstatic needed.
STATIC_MANIFEST = env_bool("CATAN_ARENA_STATIC_MANIFEST", default=False)
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Uploads: the whole file is checked in memory (it is small by the caps below). The
# defaults are validation's (arena_runner.validation_policy), as `catan-arena validate`.
UPLOAD_MAX_BYTES = positive_int("CATAN_ARENA_UPLOAD_MAX_BYTES", UPLOAD_CAPS.archive_bytes)
UPLOAD_UNPACKED_MAX_BYTES = positive_int(
    "CATAN_ARENA_UNPACKED_MAX_BYTES", UPLOAD_CAPS.unpacked_bytes
)
UPLOAD_MAX_FILES = positive_int("CATAN_ARENA_UPLOAD_MAX_FILES", UPLOAD_CAPS.files)
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES + (1 << 20)
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES + (1 << 20)
FILE_UPLOAD_HANDLERS = [
    "catan_arena.submissions.upload_handler.CappedUploadHandler",  # over the cap: unread
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# Matches.
MATCH_DECISION_SECONDS = env_float(
    "CATAN_ARENA_DECISION_SECONDS",
    DECISION_SECONDS,
    above=0,
    at_least=DECISION_BOUND.low,
    at_most=DECISION_BOUND.high,
)
MATCH_TIME_BANK_SECONDS = env_float(
    "CATAN_ARENA_TIME_BANK_SECONDS",
    TIME_BANK_SECONDS,
    at_least=TIME_BANK_BOUND.low,
    at_most=TIME_BANK_BOUND.high,
)
MATCH_MAX_ATTEMPTS = positive_int("CATAN_ARENA_MATCH_ATTEMPTS", 3)
MATCH_DEADLINE_MARGIN = positive_float("CATAN_ARENA_DEADLINE_MARGIN", 120.0)
"""Seconds past a match's own time budget before a running match counts as lost."""
MATCH_HEARTBEAT_SECONDS = positive_float("CATAN_ARENA_HEARTBEAT_SECONDS", 10.0)
MATCH_HEARTBEAT_TIMEOUT = positive_float("CATAN_ARENA_HEARTBEAT_TIMEOUT", 60.0)
"""A running match whose worker has not beaten for this long is lost (a vanished machine)."""
if MATCH_HEARTBEAT_TIMEOUT <= 2 * MATCH_HEARTBEAT_SECONDS:
    raise ImproperlyConfigured(
        "CATAN_ARENA_HEARTBEAT_TIMEOUT must exceed twice CATAN_ARENA_HEARTBEAT_SECONDS"
    )
WARM_SANDBOXES = env_int("CATAN_ARENA_WARM_SANDBOXES", 4, at_least=0)
WORKER_NICENESS = env_int("CATAN_ARENA_WORKER_NICENESS", 10, at_least=0, at_most=19)
"""The niceness of the processes that play and validate (Celery's pool processes, the
embedded default's local workers) and of the bots they start: on a host shared with the
site, the pages are served first. 0: the web's own priority."""

# Fair use of the workers, per author (catan_arena.abtests.fair_use; uploads: the "upload"
# rate below, both doors, rejected attempts included).
AUTHOR_MATCHES_IN_FLIGHT = positive_int("CATAN_ARENA_AUTHOR_MATCHES_IN_FLIGHT", 6)
"""An author's A/B games and validations queued or running at once."""
AUTHOR_AB_TESTS = positive_int("CATAN_ARENA_AUTHOR_AB_TESTS", 2)
"""A/B tests one author may have running at once."""
AB_MAX_PAIRS = positive_int("CATAN_ARENA_AB_MAX_PAIRS", 400)
"""The most pairs an A/B test may ask for (its limits are at most the ladder's)."""
PERSON_DECISION_SECONDS = positive_float("CATAN_ARENA_PERSON_DECISION_SECONDS", 60.0)
"""A person's clock per decision in a game against the bots (then the autopilot plays it)."""
PERSON_AWAY_SECONDS = positive_float("CATAN_ARENA_PERSON_AWAY_SECONDS", 300.0)
"""A person whose page has not asked for this long forfeits the game to the autopilot."""
HOUSE_BOTS_ON_LADDER = env_bool("CATAN_ARENA_HOUSE_BOTS_ON_LADDER", default=True)
"""The built-in bots are on the ladder from the first start (the matchmaker registers them)."""

# The cache (throttles of the API and the site's forms): local memory per process by
# default; a server shares one in Redis (``CACHE_URL=redis://redis:6379/1``).
CACHES = {"default": environ.Env.cache_url_config(env_str("CACHE_URL", "locmemcache://"))}
if CACHES["default"]["BACKEND"].endswith("LocMemCache"):
    # axes warns that a process-local cache counts log-in failures per web process: on
    # the embedded default (one person's platform on 127.0.0.1) that is accepted.
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

# Celery (server mode). No broker: the embedded default, which never imports a broker.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
EMBEDDED = not CELERY_BROKER_URL
FIRST_ACCOUNT_ORGANIZES = env_bool("CATAN_ARENA_FIRST_ACCOUNT_ORGANIZES", default=EMBEDDED)
"""The first account signed up may organize tournaments (on by default on the embedded
default, one person's own platform; a server grants the role in the admin)."""
CELERY_TASK_DEFAULT_QUEUE = MATCH_QUEUE  # validations go to VALIDATION_QUEUE (core.queues)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_DB_REUSE_MAX = env_int("CATAN_ARENA_DB_REUSE_TASKS", 1000, at_least=0)
"""Celery's Django fixup closes a worker's database connection once in this many tasks,
not around every task (``catan_arena.core.worker_db``); 0: around every task."""
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": positive_int("CATAN_ARENA_VISIBILITY_TIMEOUT", 4 * 3600),
}
REDISPATCH_SECONDS = positive_float("CATAN_ARENA_REDISPATCH_SECONDS", 120.0)
"""A match (or validation) still queued this long, queued before the broker's data began
(a Redis restarted without its data) or while the broker's queue holds fewer messages,
was lost by the broker: the reaper queues it again (``core.dispatch.lost_by_broker``)."""
REAPER_SECONDS = positive_float("CATAN_ARENA_REAPER_SECONDS", 60.0)
"""How often beat re-queues lost work and resumes A/B tests that waited for room."""
_QUICK = {"queue": VALIDATION_QUEUE}
"""Every periodic task is quick work: none waits behind long matches, and the match
queue's length counts matches only (the reaper reads it)."""
CELERY_BEAT_SCHEDULE = {
    "requeue-stuck-matches": {
        "task": "catan_arena.matches.tasks.requeue_stuck_matches_task",
        "schedule": REAPER_SECONDS,
        "options": _QUICK,
    },
    "start-due-tournaments": {
        "task": "catan_arena.tournaments.tasks.start_due_tournaments_task",
        "schedule": positive_float("CATAN_ARENA_TOURNAMENT_TICK_SECONDS", 10.0),
        "options": _QUICK,
    },
    "resume-ab-tests": {
        "task": "catan_arena.abtests.tasks.resume_waiting_ab_tests_task",
        "schedule": REAPER_SECONDS,
        "options": _QUICK,
    },
    "rate-ready-matches": {  # catch-up: a rating task lost with the broker's data
        "task": RATE_TASK,
        "schedule": REAPER_SECONDS,
        "options": _QUICK,
    },
    "fill-ladder": {
        "task": "catan_arena.ladder.tasks.fill_ladder_task",
        "schedule": positive_float("CATAN_ARENA_LADDER_TICK_SECONDS", 10.0),
        "options": _QUICK,
    },
}

THROTTLE_RATES = {
    "upload": env_str("CATAN_ARENA_UPLOAD_RATE", "30/hour"),
    "signup": env_str("CATAN_ARENA_SIGNUP_RATE", "10/hour"),
}
"""The forms' and the API's rates (catan_arena.core.rates: a bad one stops start-up)."""
for _scope, _text in THROTTLE_RATES.items():
    try:
        parse_rate(_text)
    except ValueError as exc:
        raise ImproperlyConfigured(f"CATAN_ARENA_{_scope.upper()}_RATE={exc}") from None

# The REST API (catan_arena.api): session or token auth, one JSON error shape.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "catan_arena.api.authentication.ApiTokenAuthentication",  # first: 401 + WWW-Authenticate
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "catan_arena.api.schema.ArenaAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "catan_arena.api.pagination.Pages",
    "EXCEPTION_HANDLER": "catan_arena.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": THROTTLE_RATES,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON bodies only, as the schema declares (a form body: 415); the upload alone reads
    # multipart (api.bots.UploadView). Issue 24.
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Catan Arena API",
    "DESCRIPTION": "Bots, versions, matches and replays, tournaments, the ladder, A/B tests.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "PATH_CONVERTER_OVERRIDES": {  # what the URLs match (else 404)
        "id": {"type": "integer", "minimum": 1, "maximum": MAX_ID},  # catan_arena.core.params
        "slug": {"type": "string", "pattern": f"^{SlugConverter.regex}$"},
        "int": {"type": "integer", "minimum": 0},
    },
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "catan_arena.matches.models.Match.Status",
        "VersionStatusEnum": "catan_arena.submissions.models.BotVersion.Status",
        "TournamentStatusEnum": "catan_arena.tournaments.models.Tournament.Status",
        "ABTestStatusEnum": "catan_arena.abtests.models.ABTest.Status",
    },
}

LOG_LEVEL = env_choice(
    "CATAN_ARENA_LOG_LEVEL", "WARNING", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
