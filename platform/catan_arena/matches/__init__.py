"""Matches: one game at a table of 3 or 4 versions, played by a worker in the sandbox,
its result, seats, replay and logs recorded exactly once."""
