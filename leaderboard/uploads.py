"""Upload size refused before the body is read.

An upload view's request is checked in two steps before anything else touches its body
(the CSRF check reads it): a ``Content-Length`` over the task's largest upload limit is
a 413 at once, without reading a byte; otherwise the body is parsed through
:class:`SizeLimitedUpload`, which counts the file's bytes as they stream in and stops
past the limit, so an oversized file is never held whole, in memory or on disk. The
exact per-phase limit is checked again when the submission is accepted.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler

from .errors import client_error
from .models import Phase
from .services.submissions.intake import UploadTooLarge

UPLOAD_VIEWS = {"submit", "api-submit"}  # URL names
FORM_ALLOWANCE = 1024 * 1024  # multipart headers and the form's other fields


def upload_ceiling(slug: str) -> int:
    """The most bytes any phase of the task accepts in one file."""
    phases = Phase.objects.filter(task__slug=slug).only("max_upload_mb")
    return max((p.max_upload_bytes() for p in phases), default=int(settings.GEC_MAX_UPLOAD_MB * 1024 * 1024))


def content_length(request) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0  # as Django reads it: no body


class SizeLimitedUpload(FileUploadHandler):
    """Passes each chunk on to Django's handlers, and stops the upload past ``limit``."""

    def __init__(self, request, limit: int):
        super().__init__(request)
        self.limit = limit

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > self.limit:
            raise UploadTooLarge(f"the file is over {self.limit} bytes, the most this task accepts")
        return raw_data

    def file_complete(self, file_size):
        return None  # the next handler makes the file


class UploadLimits:
    """Middleware; it must come before ``CsrfViewMiddleware``, whose check reads the body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST" or request.resolver_match.url_name not in UPLOAD_VIEWS:
            return None
        limit = upload_ceiling(view_kwargs["slug"])
        if content_length(request) > limit + FORM_ALLOWANCE:
            return client_error(
                request,
                413,
                f"the upload has {content_length(request)} bytes; this task accepts files of at most {limit}",
            )
        request.upload_handlers.insert(0, SizeLimitedUpload(request, limit))
        try:
            request.FILES  # noqa: B018 -- parse now, through the handler, before anything else reads the body
        except UploadTooLarge as error:
            return client_error(request, 413, str(error))
        return None
