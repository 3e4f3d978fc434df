"""API tokens: made with a random key shown once, stored as its sha256."""

from __future__ import annotations

import hashlib
import secrets

from django.utils import timezone

from catan_arena.accounts.models import ApiToken, User
from catan_arena.core.errors import Invalid

KEY_PREFIX = "cat_"
MAX_TOKENS = 20


class TokenError(Invalid):
    """A token cannot be made as asked; the message says why (the ``name`` field's)."""

    field = "name"


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_token(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token of ``user`` and its key (the only time the key is known)."""
    name = name.strip()
    if not name or len(name) > 60:
        raise TokenError("a token needs a name of 1 to 60 characters")
    if user.api_tokens.count() >= MAX_TOKENS:
        raise TokenError(f"at most {MAX_TOKENS} tokens: revoke one first")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[: len(KEY_PREFIX) + 6], key_hash=key_hash(key)
    )
    return token, key


def user_for_key(key: str) -> tuple[User, ApiToken] | None:
    """The active user a key belongs to (and notes the token's use), or None."""
    token = ApiToken.objects.select_related("user").filter(key_hash=key_hash(key)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)  # at most once a minute
    return token.user, token


def revoke_token(user: User, token_id: int) -> bool:
    """Delete one of ``user``'s tokens; False if it is not theirs or not there."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)
