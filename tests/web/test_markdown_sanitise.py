"""The organizers' Markdown becomes HTML from an allow-list: formatting, tables, code and
http(s)/mailto links survive; raw HTML that acts (scripts, styles, frames, forms, images,
event handlers, javascript: and data: addresses) does not."""

import pytest

from leaderboard.sanitise import markdown_html


@pytest.mark.parametrize(
    "markdown",
    [
        "<script>alert(1)</script>",
        "<style>body{display:none}</style>",
        '<iframe src="https://evil.example"></iframe>',
        '<form action="https://evil.example"><input name="password"></form>',
        '<img src="x" onerror="alert(1)">',
        "![tracker](https://evil.example/pixel.png)",
        '<p onclick="alert(1)">text</p>',
        "[click](javascript:alert(1))",
        '<a href="JaVaScRiPt:alert(1)">click</a>',
        "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        '<svg onload="alert(1)"></svg>',
    ],
)
def test_nothing_that_acts_survives(markdown):
    html = markdown_html(markdown).lower()
    for leak in (
        "<script",
        "<style",
        "<iframe",
        "<form",
        "<input",
        "<img",
        "<svg",
        "onerror",
        "onclick",
        "onload",
        "javascript:",
        "data:",
        "evil.example",
    ):
        assert leak not in html, (markdown, html)


def test_formatting_tables_code_and_links_survive():
    html = markdown_html(
        "## Dates\n\n*Dev* opens **1 May**.\n\n| Phase | Opens |\n|---|---|\n| dev | 1 May |\n\n"
        "```\ngec-submit download-input bea19\n```\n\n[Site](https://example.org) · <mailto:org@example.org>\n"
    )
    assert "<h2>Dates</h2>" in html and "<em>Dev</em>" in html and "<strong>1 May</strong>" in html
    assert "<table>" in html and "<td>dev</td>" in html
    assert "<pre><code>gec-submit download-input bea19\n</code></pre>" in html
    assert '<a href="https://example.org" rel="noopener noreferrer nofollow">Site</a>' in html
    assert 'href="mailto:' in html
