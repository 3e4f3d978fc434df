from django.contrib.auth import views as auth
from django.urls import path, reverse_lazy
from django.views.generic import RedirectView

from catan_arena.core import params  # noqa: F401  (registers <id:…>)
from catan_arena.web import accounts, authoring, organizing, play, replay_pages, views
from catan_arena.web.guides import GUIDES

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("ladder/", views.ladder, name="ladder"),
    path("bots/<slug:name>/", views.bot, name="bot"),
    path("bots/<slug:name>/versions/", authoring.versions, name="bot-versions"),
    path("bots/<slug:name>/ab-tests/", authoring.start_ab_test, name="ab-test"),
    path("bots/<slug:name>/play/", play.start_game, name="play-start"),
    path("play/<id:pk>/", play.play, name="play"),
    path("play/<id:pk>/state/", play.play_state, name="play-state"),
    path("play/<id:pk>/decide/", play.play_decide, name="play-decide"),
    path("upload/", authoring.upload, name="upload"),
    path("docs/", RedirectView.as_view(url=reverse_lazy("web:guide", args=[GUIDES[0].slug]))),
    path("docs/<slug:slug>/", views.guide, name="guide"),
    path("matches/<id:pk>/log/<int:seat>/", authoring.seat_log, name="seat-log"),
    path("matches/", views.matches, name="matches"),
    path("matches/<id:pk>/", views.match, name="match"),
    path("matches/<id:pk>/live/data/", views.match_live_data, name="match-live-data"),
    path("matches/<id:pk>/replay/", replay_pages.replay, name="replay"),
    path("matches/<id:pk>/replay/data/", replay_pages.replay_data, name="replay-data"),
    path("matches/<id:pk>/replay/position/", views.position, name="position"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/new/", organizing.new_tournament, name="tournament-new"),
    path("tournaments/<id:pk>/", views.tournament, name="tournament"),
    path("tournaments/<id:pk>/act/", organizing.tournament_action, name="tournament-act"),
    path("sign-up/", accounts.sign_up, name="sign-up"),
    path("account/tokens/", accounts.tokens, name="tokens"),
    path("log-in/", accounts.LogInView.as_view(), name="log-in"),
    path("log-out/", auth.LogoutView.as_view(), name="log-out"),
    path("account/password/", accounts.PasswordChange.as_view(), name="password-change"),
    path(
        "account/password/done/",
        auth.PasswordChangeDoneView.as_view(template_name="web/password_changed.html"),
        name="password-change-done",
    ),
    path("account/reset/", accounts.PasswordReset.as_view(), name="password-reset"),
    path(
        "account/reset/sent/",
        auth.PasswordResetDoneView.as_view(template_name="web/password_reset_sent.html"),
        name="password-reset-sent",
    ),
    path(
        "account/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirm.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "account/reset/done/",
        auth.PasswordResetCompleteView.as_view(template_name="web/password_reset_done.html"),
        name="password-reset-done",
    ),
]
