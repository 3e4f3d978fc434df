"""An author's pages: upload a bot (a new one, or the next version of one of theirs)
and watch it validated, start an A/B test of two versions, read their bot's own log of a
match. Everything goes through the same services as the API."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from arena_runner.validation_policy import caps_text
from catan_arena.abtests.fair_use import admit_upload, upload_within_limits
from catan_arena.abtests.services import request_ab_test
from catan_arena.accounts.models import User
from catan_arena.core.page_errors import Refusal, message_on_refusal
from catan_arena.matches.selectors import seat_with_log
from catan_arena.submissions.models import Bot, BotVersion
from catan_arena.submissions.selectors import (
    active_versions_of,
    bot_named,
    is_author,
    shown_report,
    versions_of,
)
from catan_arena.submissions.services import upload_limits
from catan_arena.submissions.upload_handler import request_too_large


class UploadForm(forms.Form):
    name = forms.SlugField(max_length=40, label="Bot name")
    file = forms.FileField(label="A .py file or a .zip package")
    description = forms.CharField(max_length=500, required=False)
    inherit_rating = forms.BooleanField(
        required=False, label="Start from the bot's current rating (uncertainty widened)"
    )


def too_large(request: HttpRequest) -> bool:
    """Parse the body (through the capped upload handler) and say if it was refused."""
    _ = request.FILES
    return request_too_large(request)


@login_required
def upload(request: HttpRequest) -> HttpResponse:
    """The upload form (``?bot=NAME`` fills in one of the author's bots)."""
    user: User = request.user  # type: ignore[assignment]
    if request.method == "POST":
        admitted = Refusal()
        with admitted.catch():  # every attempt counts, as in the API: rejected ones too
            admit_upload(user)
        if admitted.error is not None:
            form = UploadForm(initial={"name": request.GET.get("bot", "")})
            context = {"form": form, "error": admitted.message}
            return _upload_page(request, context, admitted.status)
    if request.method == "POST" and too_large(request):
        form = UploadForm(initial={"name": request.GET.get("bot", "")})
        error = f"the file is over the {settings.UPLOAD_MAX_BYTES:,}-byte cap: not read"
        return _upload_page(request, {"form": form, "error": error}, 413)
    form = UploadForm(request.POST or None, request.FILES or None,
                      initial={"name": request.GET.get("bot", "")})  # fmt: skip
    refusal = Refusal(form)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["file"].size > settings.UPLOAD_MAX_BYTES:
            form.add_error("file", f"uploads are limited to {settings.UPLOAD_MAX_BYTES:,} bytes")
        else:
            with refusal.catch():
                outcome = upload_within_limits(
                    user,
                    data["name"],
                    data["file"].name or "",
                    data["file"].read(),
                    description=data["description"],
                    inherit_rating=data["inherit_rating"],
                )
                messages.success(request, outcome.message)
                return redirect("web:bot", name=outcome.version.bot.name)
    return _upload_page(request, {"form": form}, refusal.status)


def _upload_page(request: HttpRequest, context: dict[str, Any], status: int) -> HttpResponse:
    """The upload page, stating this server's caps (the ones its check applies)."""
    context["caps"] = caps_text(upload_limits())
    return render(request, "web/upload.html", context, status=status)


def versions(request: HttpRequest, name: str) -> HttpResponse:
    """The bot's versions table, polled by htmx while a version is being validated."""
    bot = bot_named(name)
    if bot is None:
        raise Http404("no such bot")
    rows = versions_of(bot)
    context = {
        "bot": bot,
        "version_rows": version_rows(rows, request.user),
        "validating": validating(rows),
    }
    return render(request, "web/_versions.html", context)


def version_rows(rows: list[BotVersion], user: Any) -> list[tuple[BotVersion, str]]:
    """Each version with the report ``user`` may read (:func:`shown_report`)."""
    return [(v, shown_report(v, user)) for v in rows]


def validating(rows: list[BotVersion]) -> bool:
    """Whether a version is still waiting for its validation (the table polls then)."""
    waiting = BotVersion.IN_VALIDATION
    return any(v.status in waiting for v in rows)


def seat_log(request: HttpRequest, pk: int, seat: int) -> HttpResponse:
    """What the bot wrote to its log in one match: for its author (and staff) only."""
    row = seat_with_log(pk, seat)
    if row is None:
        raise Http404("no such seat")
    if not is_author(request.user, row.version.bot.owner_id):
        raise PermissionDenied("a seat's log is for its bot's author only")
    return render(request, "web/seat_log.html", {"seat": row})


class ABTestForm(forms.Form):
    version_a = forms.ModelChoiceField(queryset=BotVersion.objects.none(), label="A (baseline)")
    version_b = forms.ModelChoiceField(queryset=BotVersion.objects.none(), label="B (challenger)")

    def __init__(self, bot: Bot, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        active = active_versions_of(bot)
        for field in ("version_a", "version_b"):
            self.fields[field].queryset = active  # type: ignore[attr-defined]
            self.fields[field].empty_label = "choose"  # type: ignore[attr-defined]
            self.fields[field].label_from_instance = lambda v: f"v{v.number}"  # type: ignore[attr-defined]


@require_POST
@login_required
def start_ab_test(request: HttpRequest, name: str) -> HttpResponse:
    bot = bot_named(name)
    if bot is None:
        raise Http404("no such bot")
    form = ABTestForm(bot, request.POST)
    if not form.is_valid():
        messages.error(request, "choose two active versions")
        return redirect("web:bot", name=name)
    with message_on_refusal(request, "A/B test not started"):
        test = request_ab_test(
            request.user,  # type: ignore[arg-type]
            form.cleaned_data["version_a"],
            form.cleaned_data["version_b"],
        )
        messages.success(request, f"{test} started: pairs of games are queued")
    return redirect("web:bot", name=name)
