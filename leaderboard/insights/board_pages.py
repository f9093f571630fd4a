"""A page of the board's API answer (opt-in ``limit`` and ``offset``): the whole body is
~1 KB a row, so a client that shows the top 20 of 1,000 systems asks for those.

A page is cut from the body built once per pool version (``standings.leaderboard_body``),
parsed once per version and process and kept under that body's ETag (the last
:data:`PARSED_BOARDS` boards), so it changes exactly when the board does and has an ETag
of its own for 304s. Only the last :data:`RECENT_PAGES` pages are kept (a page of 1,000
rows costs ~100 ms of JSON and gzip): each (offset, limit) an anonymous client asked for
was an entry in the default cache for an hour, up to 2,000 pages of up to 1 MB per
process (docs/security.md).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from ..standings import BoardBody, board_body

PARSED_BOARDS = 8
RECENT_PAGES = 32
_parsed: OrderedDict[str, dict] = OrderedDict()
_pages: OrderedDict[tuple[str, int, int], BoardBody] = OrderedDict()
_lock = threading.Lock()


def _recent(kept: OrderedDict, key, most: int, make):
    """``kept[key]``, made by ``make()`` when missing; ``kept`` holds the ``most`` last used."""
    with _lock:
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
    found = make()
    with _lock:
        kept[key] = found
        while len(kept) > most:
            kept.popitem(last=False)
    return found


def parsed(body: BoardBody) -> dict:
    """The body's content, parsed once per ETag in this process (the last few boards)."""
    return _recent(_parsed, body.etag, PARSED_BOARDS, lambda: json.loads(body.json))


def board_page(body: BoardBody, offset: int, limit: int) -> BoardBody:
    """The rows ``offset`` .. ``offset + limit - 1`` of ``body`` and ``"page": {"offset",
    "limit", "total", "next_offset"}`` (``next_offset`` null on the last page); every other
    field as the whole body has it."""
    return _recent(_pages, (body.etag, offset, limit), RECENT_PAGES, lambda: _cut(body, offset, limit))


def _cut(body: BoardBody, offset: int, limit: int) -> BoardBody:
    content = parsed(body)
    rows = content["rows"]
    following = offset + limit
    page = {
        **content,
        "rows": rows[offset:following],
        "page": {
            "offset": offset,
            "limit": limit,
            "total": len(rows),
            "next_offset": following if following < len(rows) else None,
        },
    }
    return board_body(page)
