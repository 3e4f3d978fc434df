"""URLs: the admin now; the pages and the API come with their issues."""

from django.contrib import admin
from django.urls import path

from catan_arena.core.views import health, home

urlpatterns = [
    path("", home, name="home"),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
]
