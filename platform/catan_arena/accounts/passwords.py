"""What follows a password change, wherever it is made (the site's change and reset
pages, the admin, ``manage.py changepassword``): the user's API tokens are revoked.
Django's password-validator hook is the one place every path calls after saving a new
password; the user's other sessions end by themselves (their session hash no longer
matches), the session that changed it is kept by the change view."""

from __future__ import annotations

from catan_arena.accounts.models import ApiToken, User


class RevokeTokensOnPasswordChange:
    """Listed in ``AUTH_PASSWORD_VALIDATORS``; validates nothing."""

    def validate(self, password: str, user: User | None = None) -> None:
        return None

    def password_changed(self, password: str, user: User | None = None) -> None:
        if user is not None and user.pk is not None:
            ApiToken.objects.filter(user_id=user.pk).delete()

    def get_help_text(self) -> str:
        return ""
