"""URLs: the site's pages, the REST API under /api/v1/, the admin."""

from django.contrib import admin
from django.urls import include, path, re_path

from catan_arena.api.errors import not_found
from catan_arena.core.views import health

urlpatterns = [
    path("api/v1/", include("catan_arena.api.urls")),
    re_path(r"^api/", not_found),  # JSON under /api/, any version, any method
    path("", include("catan_arena.web.urls")),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
]

handler500 = "catan_arena.core.views.server_error"
