"""Ratings: the ladder's multiplayer Elo (``systems`` is pure, no Django)."""
