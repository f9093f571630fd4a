"""What a viewer's page polls for their own: a team member's page polls its
team's channel files (services/boards), which the proxy serves without Django; the same
files are served here for a deployment without the proxy (runserver, the embedded mode).

Which URL a page polls is :mod:`leaderboard.services.boards.polled`'s choice.
"""

from django.http import Http404, HttpResponse

from ..services.boards import channels

TYPES = {"team": "text/html; charset=utf-8", "submission": "application/json"}


def live_file(request, kind: str, filename: str):
    """A channel's file as the proxy serves it (``docker/nginx/gec.conf.template``, /live/)."""
    path = channels.file_at(kind, filename)
    try:
        body = path.read_bytes() if path is not None else None
    except OSError:
        body = None
    if body is None:
        raise Http404("no such live channel")
    response = HttpResponse(body, content_type=TYPES[kind])
    response["Cache-Control"] = "no-store"
    return response
