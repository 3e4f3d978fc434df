"""Accounts: people (bot authors, organizers) and the system account of the built-ins."""
