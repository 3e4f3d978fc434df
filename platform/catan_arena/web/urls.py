from django.contrib.auth import views as auth
from django.urls import path

from catan_arena.web import accounts, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("ladder/", views.ladder, name="ladder"),
    path("bots/<slug:name>/", views.bot, name="bot"),
    path("matches/", views.matches, name="matches"),
    path("matches/<int:pk>/", views.match, name="match"),
    path("matches/<int:pk>/replay/", views.replay, name="replay"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:pk>/", views.tournament, name="tournament"),
    path("sign-up/", accounts.sign_up, name="sign-up"),
    path("log-in/", auth.LoginView.as_view(template_name="web/log_in.html"), name="log-in"),
    path("log-out/", auth.LogoutView.as_view(), name="log-out"),
]
