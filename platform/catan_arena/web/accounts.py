"""Sign up, log in, log out, API tokens: Django's own auth views and forms, in the site's look.
Log-in failures say the same whatever was wrong, so the page tells nobody which
usernames exist; the log-in limit is django-axes' (settings ``AXES_*``), on every door."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import (
    LoginView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy

from catan_arena.accounts.models import User
from catan_arena.accounts.selectors import username_taken
from catan_arena.accounts.services import welcome_new_account
from catan_arena.accounts.tokens import create_token, revoke_token
from catan_arena.accounts.usernames import confusable_with, normalize
from catan_arena.core import throttle
from catan_arena.core.page_errors import Refusal
from catan_arena.core.params import object_id


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = User
        fields = ("username", "email")  # the e-mail (optional): for a password reset

    def clean_username(self) -> str:
        """NFKC-normalised (Django's ``UsernameField``); refused when it could be taken
        for an existing username (``аlice`` with a Cyrillic а beside ``alice``)."""
        name = normalize(str(self.cleaned_data["username"]))
        if username_taken(name):
            raise forms.ValidationError("that username is taken")
        existing = confusable_with(name)
        if existing is not None:
            raise forms.ValidationError(f"that username looks too much like {existing!r}")
        return name


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    response = render(request, "web/too_many.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(wait)
    return response


class LogInView(LoginView):
    """Django's log-in; its limit is the one of every door (django-axes)."""

    template_name = "web/log_in.html"


class PasswordChange(PasswordChangeView):
    """Django's password change: this session stays, the user's other sessions end and
    their API tokens are revoked (:mod:`catan_arena.accounts.passwords`)."""

    template_name = "web/password_change.html"
    success_url = reverse_lazy("web:password-change-done")


class PasswordReset(PasswordResetView):
    """Django's reset: a link by mail (``EMAIL_URL``; the console by default), the same
    answer whether or not the address belongs to an account."""

    template_name = "web/password_reset.html"
    email_template_name = "web/password_reset_email.txt"
    subject_template_name = "web/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-sent")


class PasswordResetConfirm(PasswordResetConfirmView):
    template_name = "web/password_reset_confirm.html"
    success_url = reverse_lazy("web:password-reset-done")


def sign_up(request: HttpRequest) -> HttpResponse:
    """Usernames are public on this site (every bot names its author), so "taken" tells
    nothing secret; new accounts are limited per client address (the ``signup`` rate)."""
    if request.method == "POST":
        wait = throttle.hit("signup", throttle.client_address(request))
        if wait is not None:
            return too_many(request, wait)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if welcome_new_account(user):
            messages.success(
                request, "you are this platform's first account: you may organize tournaments"
            )
        return redirect("web:home")
    return render(request, "web/sign_up.html", {"form": form})


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """The user's API tokens: make one (its key shown on this response only), revoke one."""
    user: User = request.user  # type: ignore[assignment]
    new_key = None
    error = None
    refusal = Refusal()
    if request.method == "POST":
        if "revoke" in request.POST:
            token_id = object_id(request.POST["revoke"])
            if token_id is not None:
                if revoke_token(user, token_id):
                    messages.success(request, "token revoked")
                return redirect("web:tokens")
            error = "choose a token to revoke"
        else:
            with refusal.catch():
                _, new_key = create_token(user, request.POST.get("name", ""))
    error = error or refusal.message
    context = {"tokens": user.api_tokens.all(), "new_key": new_key, "error": error}
    response = render(request, "web/tokens.html", context, status=400 if error else 200)
    response["Cache-Control"] = "no-store"  # the key must not stay in a cache
    return response
