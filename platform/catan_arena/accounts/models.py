"""The user model (a custom one from the start, as Django advises)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A bot author or organizer, or the system account that owns the built-in bots."""

    is_system = models.BooleanField(
        default=False, help_text="The platform's own account (owner of the built-in bots)."
    )
