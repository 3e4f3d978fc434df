"""Shared pieces of the platform: base views and small helpers (no models)."""
