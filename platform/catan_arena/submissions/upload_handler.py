"""The first of Django's upload handlers: a request body over the upload cap is not
read at all (its ``Content-Length`` says so), and a body without one is cut as soon as
it passes the cap. Nothing of it reaches memory or the disk; the views answer 413
(``request_too_large``). Everything under the cap stays in memory (see
``FILE_UPLOAD_MAX_MEMORY_SIZE``): an upload never writes a temporary file."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, QueryDict
from django.utils.datastructures import MultiValueDict

OVERHEAD = 64 << 10
"""Bytes a multipart body may carry beyond the file itself (boundaries, other fields)."""
MARK = "catan_arena_upload_too_large"


def body_cap() -> int:
    return int(settings.UPLOAD_MAX_BYTES) + OVERHEAD


def request_too_large(request: HttpRequest) -> bool:
    """Whether :class:`CappedUploadHandler` refused this request's body."""
    return bool(request.META.get(MARK))


class CappedUploadHandler(FileUploadHandler):
    def handle_raw_input(
        self, input_data: Any, META: dict[str, Any], content_length: int, boundary: Any,
        encoding: str | None = None,
    ) -> tuple[QueryDict, MultiValueDict[str, Any]] | None:  # fmt: skip
        self.seen = 0
        if content_length > body_cap():
            self._mark()
            return QueryDict(), MultiValueDict()  # nothing read
        return None

    def _mark(self) -> None:
        """On the request itself (DRF parses with a copy of ``META``)."""
        if self.request is not None:
            self.request.META[MARK] = True

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.seen += len(raw_data)
        if self.seen > body_cap():
            self._mark()
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None
