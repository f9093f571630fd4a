"""What the task pages and the phase downloads cost per request.

- a task page at the length limit (50,000 characters of mixed Markdown: headings,
  lists, a table, code, links and some raw HTML to strip) rendered and sanitised, the
  first time and once the process keeps it;
- a phase's inputs answered as one text file, and as a zip of five corpora, at the size
  of a large GEC test set (BEA-2019 test: 4,477 sentences; here 5,000 lines of 20
  random tokens, so the zip compresses as text does, not as a repeated line would).

    python bench/task_pages.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "leaderboard.settings")


def page_at_the_limit(limit: int) -> str:
    block = (
        "## Phase dates\n\nThe *dev* phase opens on **1 May**; see [the site](https://example.org).\n\n"
        "- one item\n- another item with `code`\n\n| Phase | Opens |\n|---|---|\n| dev | 1 May |\n\n"
        "```\ngec-submit download-input task\n```\n\n<script>alert(1)</script><p onclick='x'>raw</p>\n\n"
    )
    return (block * (limit // len(block) + 1))[:limit]


def timed(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    import django

    django.setup()
    from leaderboard.downloads import files_response
    from leaderboard.sanitise import MAX_PAGE_CHARS, markdown_html

    page = page_at_the_limit(MAX_PAGE_CHARS)
    first = timed(lambda: (markdown_html.cache_clear(), markdown_html(page)), args.runs)
    again = timed(lambda: markdown_html(page[:-1] + page[-1]), args.runs)  # an equal text read again from the database
    print(
        f"markdown + sanitise, {len(page):,} characters: {first * 1000:.1f} ms the first time, "
        f"{again * 1000:.3f} ms once kept (medians of {args.runs})"
    )
    words = random.Random(0)
    source = "\n".join(" ".join(f"w{words.randrange(30000)}" for _ in range(20)) for _ in range(5000)) + "\n"
    one = [("task-test.src.txt", source)]
    five = [(f"task-test.{lang}.src.txt", source) for lang in ("cs", "de", "en", "et", "uk")]
    for name, files in (("one text file", one), ("zip of five corpora", five)):
        size = len(files_response(files, "task-test.input.zip").content)
        print(
            f"inputs as {name} ({sum(len(t) for _, t in files) / 1e6:.1f} MB in, {size / 1e6:.2f} MB out): "
            f"{timed(lambda files=files: files_response(files, 'task-test.input.zip'), args.runs) * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
