"""Organizers' Markdown as HTML that is safe to show to everyone.

Markdown passes raw HTML through, so its output is cleaned against an allow-list
(nh3, the Rust ``ammonia`` sanitiser): text formatting, headings, lists, tables, code
and links to ``http``, ``https`` and ``mailto`` addresses only. Scripts, styles,
event handlers, ``javascript:`` and ``data:`` addresses, frames, forms and images do
not survive (images would make every visitor's browser call another host).
"""

from functools import lru_cache

import markdown
import nh3

MAX_PAGE_CHARS = 50_000

TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "dd",
    "del",
    "dl",
    "dt",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}


@lru_cache(maxsize=128)
def markdown_html(text: str) -> str:
    """``text`` (Markdown, tables and fenced code included) as sanitised HTML. Kept per
    process by text: Python-Markdown takes about 0.4 s for a page at the length limit
    (``bench/task_pages.py``), and a tab is read far more often than it is written."""
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists"], output_format="html")
    return nh3.clean(
        html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES, link_rel="noopener noreferrer nofollow"
    )
