"""The rules as plain functions over :class:`engine.state.GameState`."""
