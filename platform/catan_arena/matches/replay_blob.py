"""A finished match's replay as stored and served: gzip-compressed JSON and the sha256 of
the JSON (the API's strong ETag), written and read here only."""

from __future__ import annotations

import gzip
import hashlib
from typing import Any

import orjson

GZIP_LEVEL = 6
"""Level 9 (``gzip.compress``'s default) took ~25 ms for a long game's replay, level 6
~1.5 ms for a blob about 10% larger: the worker pays this once per match, the API once
per seat view it re-encodes."""


def pack(data: dict[str, Any]) -> tuple[bytes, str]:
    """``data`` as the stored blob and the sha256 (hex) of its JSON."""
    payload = orjson.dumps(data)
    return gzip.compress(payload, compresslevel=GZIP_LEVEL, mtime=0), hashlib.sha256(
        payload
    ).hexdigest()


def unpack(blob: bytes) -> dict[str, Any]:
    """The JSON data of a stored blob."""
    data: dict[str, Any] = orjson.loads(gzip.decompress(blob))
    return data


def json_bytes(blob: bytes) -> bytes:
    """The JSON text of a stored blob (for a client that does not take gzip)."""
    return gzip.decompress(blob)
