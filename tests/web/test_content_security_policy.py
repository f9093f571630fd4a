"""Every page runs only the scripts this server serves: each answer carries a
Content-Security-Policy whose ``script-src`` has no ``'unsafe-inline'`` (so an injected
``<script>`` or ``onclick=`` does nothing), and no template or rendered page holds a script
with code or an inline event handler (a page's data travels in ``data-*`` attributes or
``json_script`` blocks, which the browser does not execute). The site is walked as an
anonymous visitor, a participant, an annotator and an organizer: a page added later is
covered the day it is added (tests/web/site_urls.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.models import Invitation
from tests.campaigns.support import annotator, make_campaign
from tests.web.site_urls import site_urls

pytestmark = pytest.mark.django_db
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)


def inline_code(html: str) -> list[str]:
    """The scripts with code of ``html``, and its inline event handlers (``onclick=``...)."""
    found = [
        body.strip()[:80]
        for attributes, body in SCRIPT.findall(html)
        if "src=" not in attributes and "application/json" not in attributes and body.strip()
    ]
    return found + [m.group(0)[:80] for m in HANDLER.finditer(html)] + re.findall(r'href="javascript:', html)


def script_sources(header: str) -> str:
    directives = dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return directives.get("script-src", directives.get("default-src", ""))


def test_no_template_holds_a_script_with_code_or_an_event_handler():
    templates = [p for d in settings.TEMPLATES[0]["DIRS"] for p in Path(d).rglob("*.html")]
    assert len(templates) > 40
    found = {str(p): inline_code(p.read_text()) for p in templates}
    assert {p: code for p, code in found.items() if code} == {}


def test_inline_code_is_found_where_it_is():
    assert inline_code('<script>alert(1)</script><p onclick="x()">') == ["alert(1)", "<p onclick="]
    assert inline_code('<script type="application/json" id="d">{"a": 1}</script><script src="/s.js"></script>') == []


def test_every_page_sends_the_policy_to_every_viewer(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        name="rated",
        annotators=["csp-annotator"],
        mode="rating",
        outputs_per_screen=2,
        redundancy=1,
        controls=0,
        screens_per_annotator=3,
        scales=[{"name": "fluency", "min": 1, "max": 4}],
    )
    invitation = Invitation.objects.filter(campaign=campaign).first()
    urls = site_urls(
        {
            "slug": ["insight"],
            "pk": [str(insight_task["submissions"]["T5"].pk)],
            "name": [campaign.name],
            "campaign": [campaign.name],
            "token": [invitation.token],
            "invitation": [str(invitation.pk)],
            "kind": [insight_task["phase"].kind],
            "action": ["freeze"],
        }
    )
    viewers = {"anonymous": None, "participant": User.objects.get(username="alice")}
    viewers |= {"annotator": annotator("csp-annotator"), "organizer": insight_task["organizer"]}
    pages = 0
    for who, user in viewers.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        for url in urls:
            response = client.get(url)
            header = response.headers.get("Content-Security-Policy", "")
            assert "'self'" in script_sources(header), f"{who} {url}: {header!r}"
            assert "unsafe-inline" not in script_sources(header) and "unsafe-eval" not in header, f"{who} {url}"
            if response.status_code == 200 and response.get("Content-Type", "").startswith("text/html"):
                pages += 1
                assert inline_code(response.content.decode()) == [], f"{who} {url}"
    assert pages > 100  # the walk reached the pages, not only refusals
