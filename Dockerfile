# Catan Arena: one image for web (gunicorn), worker and beat (Celery) and the one-shot
# migrate service of docker-compose.yml.
#
# Debian bookworm, not python:3.11-slim: bots run on Debian's /usr/bin/python3.11 in their
# own venv (arena_runner/sandbox/botenv.py), and the platform runs on the same interpreter.
FROM debian:bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    CATAN_BOTENV=/opt/botenv \
    CATAN_ARENA_DATA=/data \
    CATAN_ARENA_STATIC_ROOT=/app/static \
    CATAN_ARENA_STATIC_MANIFEST=true

# bubblewrap + libseccomp2: the bot sandbox; python3.11 + python3.11-venv: the platform
# and the bot runtime venv; ca-certificates: pip over HTTPS at build time.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        bubblewrap ca-certificates libseccomp2 python3.11 python3.11-venv \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# The venv and the dependencies first (a layer that survives source edits): pip resolves
# them from pyproject.toml alone.
COPY pyproject.toml README.md ./
RUN /usr/bin/python3.11 -m venv "$VIRTUAL_ENV" \
    && pip install --quiet pip==26.3 \
    && python - <<'PY'
import subprocess, sys, tomllib
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *deps], check=True)
PY

# Only the sources: never .venv, .cache, .data (its secret-key) or .git.
COPY manage.py ./
COPY templates/ templates/
COPY docs/ docs/
COPY engine/ engine/
COPY bots/ bots/
COPY arena_cli/ arena_cli/
COPY arena_runner/ arena_runner/
COPY platform/ platform/
# Editable: settings.BASE_DIR is the checkout (manage.py, templates/), not site-packages.
RUN pip install --quiet --no-deps -e . \
    && python -c 'import sys; from arena_runner.sandbox.botenv import main; sys.exit(main([]))' \
    && mkdir -p /data \
    && DJANGO_SECRET_KEY=collectstatic-only CATAN_ARENA_DATA=/tmp/build-data \
       python manage.py collectstatic --noinput --verbosity 0 \
    && rm -rf /tmp/build-data

VOLUME ["/data"]
EXPOSE 8000

# Compose overrides the command for worker, beat and migrate.
CMD ["gunicorn", "catan_arena.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", \
     "--access-logfile", "-"]
