from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from catan_arena.accounts.models import User


@admin.register(User)
class ArenaUserAdmin(UserAdmin):  # type: ignore[type-arg]
    list_display = ("username", "email", "is_system", "is_staff", "date_joined")
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Catan Arena", {"fields": ("is_system",)}))
