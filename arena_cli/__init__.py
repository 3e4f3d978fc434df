"""The ``catan-arena`` command line."""
