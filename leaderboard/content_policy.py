"""Every answer's Content-Security-Policy: scripts only from this server, none inline.

The pages' clients are static files (``static/leaderboard/*.js``) and the data they read
travels in ``data-*`` attributes or ``json_script`` blocks (``type="application/json"``,
which a browser never executes), so ``script-src`` needs no ``'unsafe-inline'`` and an
injected ``<script>`` or ``onclick=`` does nothing. Styles keep ``'unsafe-inline'``: the
pages' ``<style>`` blocks and Redoc's generated styles run no code. Redoc builds its
search worker from a ``blob:``. A view that sets its own header keeps it.
(Django 6.0 has a setting for this; 5.2, which the house runs, does not.)
"""

from __future__ import annotations

from django.conf import settings

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "worker-src": "'self' blob:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def header_value(policy: dict[str, str]) -> str:
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


class ContentSecurityPolicy:
    """Adds ``Content-Security-Policy`` (``GEC_CONTENT_SECURITY_POLICY`` overrides the directives)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.value = header_value(getattr(settings, "GEC_CONTENT_SECURITY_POLICY", POLICY))

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.value)
        return response
