"""WSGI entry point (gunicorn ``catan_arena.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catan_arena.settings")
application = get_wsgi_application()
