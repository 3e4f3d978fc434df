"""Hostile bots: each file is an uploaded bot trying one attack (see test_hostile.py).

``PARAMS = {}`` is filled in by the test when it stages the file. A bot whose attack
works raises ``RuntimeError("ESCAPED ...")``, which the test would see as a fault."""
