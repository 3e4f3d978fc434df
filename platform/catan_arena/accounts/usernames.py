"""Usernames people can tell apart: NFKC-normalised (as Django's forms do), and refused
when confusable with an existing one (same skeleton: case folded, every character
replaced by one representative of its Unicode confusables group, from
``confusable_homoglyphs``' copy of Unicode's confusables table)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

from catan_arena.accounts.models import User


def normalize(name: str) -> str:
    """The stored form of a username: NFKC, as ``AbstractBaseUser.normalize_username``."""
    return unicodedata.normalize("NFKC", name)


def key(name: str) -> str:
    """One key for the spellings of one name (NFKC, case folded): what the log-in limit
    counts per account."""
    return normalize(name).casefold()


@lru_cache(maxsize=8192)
def _homoglyphs(char: str) -> tuple[str, ...]:
    found = confusables.is_confusable(char, greedy=True)
    return tuple(glyph["c"] for glyph in found[0]["homoglyphs"]) if found else ()


@lru_cache(maxsize=8192)
def _representative(char: str) -> str:
    """The prototype of ``char``'s group: the table maps each character to its prototype
    and the prototype to the whole group, so the candidate with the most look-alikes."""
    candidates = [char, *(glyph for glyph in _homoglyphs(char) if len(glyph) == 1)]
    return min(candidates, key=lambda glyph: (-len(_homoglyphs(glyph)), glyph))


def skeletons(name: str) -> frozenset[str]:
    """Two names sharing a skeleton look alike: ``аlice`` (a Cyrillic а), ``aIice`` (a
    capital I) and ``ALICE`` all share one with ``alice``. One skeleton as written (I
    and l look alike), one case folded (A and a are one letter)."""
    written = normalize(name)
    return frozenset(
        "".join(_representative(char) for char in form) for form in (written, written.casefold())
    )


def confusable_with(name: str) -> str | None:
    """The existing username ``name`` could be taken for, or None. Reads every username
    (one column; fine for the thousands of accounts a platform like this has)."""
    wanted = skeletons(name)
    for existing in User.objects.values_list("username", flat=True).iterator():
        if wanted & skeletons(existing):
            return str(existing)
    return None
