"""A page of the board's API answer (opt-in ``limit`` and ``offset``): the whole body is
~1 KB a row, so a client that shows the top 20 of 1,000 systems asks for those.

A page is cut from the body built once per pool version (``standings.leaderboard_body``)
and kept under that body's ETag, so it changes exactly when the board does, costs one
parse of the body per version and page, and has an ETag of its own for 304s.
"""

from __future__ import annotations

import json

from django.core.cache import cache

from ..standings import BoardBody, board_body


def board_page(body: BoardBody, offset: int, limit: int) -> BoardBody:
    """The rows ``offset`` .. ``offset + limit - 1`` of ``body`` and ``"page": {"offset",
    "limit", "total", "next_offset"}`` (``next_offset`` null on the last page); every other
    field as the whole body has it."""
    key = f"leaderboard-page:{body.etag}:{offset}:{limit}"
    cached = cache.get(key)
    if cached is not None:
        return BoardBody(*cached)
    content = json.loads(body.json)
    rows = content["rows"]
    following = offset + limit
    content["rows"] = rows[offset:following]
    content["page"] = {
        "offset": offset,
        "limit": limit,
        "total": len(rows),
        "next_offset": following if following < len(rows) else None,
    }
    page = board_body(content)
    cache.set(key, tuple(page), timeout=3600)
    return page
