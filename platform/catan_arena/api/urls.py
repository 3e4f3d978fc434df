"""``/api/v1/``: every endpoint, its OpenAPI schema and the interactive documentation."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from catan_arena.api import abtests, accounts, bots, ladder, matches, tournaments
from catan_arena.api.errors import not_found
from catan_arena.core import params  # noqa: F401  (registers <id:…>)

app_name = "api"

# Swagger UI with its script served as a file of its own (the split view: no inline
# script); the one relaxation of the site's Content-Security-Policy is its template's
# inline <style>, allowed on this page alone.
swagger_ui = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api:schema")
)

urlpatterns = [
    path("me/", accounts.MeView.as_view(), name="me"),
    path("me/tokens/", accounts.TokenListView.as_view(), name="tokens"),
    path("me/tokens/<id:pk>/", accounts.TokenDetailView.as_view(), name="token"),
    path("auth/token/", accounts.LoginView.as_view(), name="login"),
    path("bots/", bots.BotListView.as_view(), name="bots"),
    path("bots/<slug:name>/", bots.BotDetailView.as_view(), name="bot"),
    path("bots/<slug:name>/versions/", bots.UploadView.as_view(), name="upload"),
    path("versions/", bots.VersionListView.as_view(), name="versions"),
    path("versions/<id:pk>/", bots.VersionDetailView.as_view(), name="version"),
    path("versions/<id:pk>/withdrawal/", bots.WithdrawView.as_view(), name="withdrawal"),
    path("versions/<id:pk>/ratings/", ladder.RatingHistoryView.as_view(), name="ratings"),
    path("ladder/", ladder.LadderView.as_view(), name="ladder"),
    path("matches/", matches.MatchListView.as_view(), name="matches"),
    path("matches/<id:pk>/", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<id:pk>/replay/", matches.ReplayView.as_view(), name="replay"),
    path("matches/<id:pk>/seats/<int:seat>/log/", matches.SeatLogView.as_view(), name="log"),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<id:pk>/", tournaments.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<id:pk>/open/", tournaments.OpenView.as_view(), name="open"),
    path("tournaments/<id:pk>/schedule/", tournaments.ScheduleView.as_view(), name="schedule"),
    path("tournaments/<id:pk>/start/", tournaments.StartView.as_view(), name="start"),
    path("tournaments/<id:pk>/cancel/", tournaments.CancelView.as_view(), name="cancel"),
    path("tournaments/<id:pk>/entries/", tournaments.EntryListView.as_view(), name="entries"),
    path(
        "tournaments/<id:pk>/entries/<id:version>/",
        tournaments.EntryDetailView.as_view(),
        name="entry",
    ),
    path("tournaments/<id:pk>/standings/", tournaments.StandingsView.as_view(), name="standings"),
    path("tournaments/<id:pk>/fixtures/", tournaments.FixturesView.as_view(), name="fixtures"),
    path("ab-tests/", abtests.ABTestListView.as_view(), name="ab-tests"),
    path("ab-tests/<id:pk>/", abtests.ABTestDetailView.as_view(), name="ab-test"),
    path("ab-tests/<id:pk>/cancel/", abtests.ABTestCancelView.as_view(), name="ab-cancel"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", swagger_ui, name="docs"),
    re_path(r"^.*$", not_found),
]
