"""The user model (a custom one from the start, as Django advises)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A bot author or organizer, or the system account that owns the built-in bots."""

    is_system = models.BooleanField(
        default=False, help_text="The platform's own account (owner of the built-in bots)."
    )


class ApiToken(models.Model):
    """A named API token of a user. Only its sha256 is stored: the key is shown once,
    when it is made; ``prefix`` (its first characters) tells tokens apart."""

    user = models.ForeignKey(User, models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
