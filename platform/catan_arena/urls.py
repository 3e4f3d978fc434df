"""URLs: the site's pages, the REST API under /api/v1/, the admin."""

from django.contrib import admin
from django.urls import include, path

from catan_arena.core.views import health

urlpatterns = [
    path("", include("catan_arena.web.urls")),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("catan_arena.api.urls")),
]

handler500 = "catan_arena.core.views.server_error"
