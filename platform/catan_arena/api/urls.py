"""``/api/v1/``: every endpoint, its OpenAPI schema and the interactive documentation."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from catan_arena.api import accounts, bots, ladder, matches
from catan_arena.api.errors import not_found

app_name = "api"

urlpatterns = [
    path("me/", accounts.MeView.as_view(), name="me"),
    path("me/tokens/", accounts.TokenListView.as_view(), name="tokens"),
    path("me/tokens/<int:pk>/", accounts.TokenDetailView.as_view(), name="token"),
    path("auth/token/", accounts.LoginView.as_view(), name="login"),
    path("bots/", bots.BotListView.as_view(), name="bots"),
    path("bots/<slug:name>/", bots.BotDetailView.as_view(), name="bot"),
    path("bots/<slug:name>/versions/", bots.UploadView.as_view(), name="upload"),
    path("versions/", bots.VersionListView.as_view(), name="versions"),
    path("versions/<int:pk>/", bots.VersionDetailView.as_view(), name="version"),
    path("versions/<int:pk>/withdrawal/", bots.WithdrawView.as_view(), name="withdrawal"),
    path("versions/<int:pk>/ratings/", ladder.RatingHistoryView.as_view(), name="ratings"),
    path("ladder/", ladder.LadderView.as_view(), name="ladder"),
    path("matches/", matches.MatchListView.as_view(), name="matches"),
    path("matches/<int:pk>/", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<int:pk>/replay/", matches.ReplayView.as_view(), name="replay"),
    path("matches/<int:pk>/seats/<int:seat>/log/", matches.SeatLogView.as_view(), name="log"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^.*$", not_found),
]
