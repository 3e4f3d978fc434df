"""Submissions: bots, their uploaded immutable versions (content by sha256) and their
validation."""
