"""Engine exceptions. All derive from :class:`EngineError`."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidActionError(EngineError, ValueError):
    """The action is malformed: unknown type, missing or ill-typed fields."""


class IllegalActionError(EngineError, ValueError):
    """The action is well formed but not legal now; the message names the rule."""


class ReplayError(EngineError, ValueError):
    """A replay document is malformed, of an unsupported version, or does not reproduce."""


class ConfigError(EngineError, ValueError):
    """A rules configuration value is out of range."""
