"""Waiting on a condition instead of sleeping a fixed time: a test goes on the moment what
it waits for holds, and fails naming it when that never comes within ``timeout``."""

from __future__ import annotations

import time
from collections.abc import Callable


def until(
    condition: Callable[[], object],
    *,
    timeout: float,
    what: str,
    every: float = 0.05,
    pause: Callable[[float], object] = time.sleep,
) -> float:
    """Seconds until ``condition()`` held, asked every ``every`` seconds; AssertionError
    naming ``what`` past ``timeout``. A Playwright page's events arrive only while it is
    called, so a browser test passes ``pause=lambda s: page.wait_for_timeout(s * 1000)``."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"{what}: not within {timeout} s")
        pause(every)
    return time.monotonic() - started


def page_holds(page, expression: str, timeout: float = 30.0) -> float:
    """Seconds until the JavaScript ``expression`` (or a function's answer) is truthy in ``page``. Playwright's own
    ``wait_for_function`` evaluates its predicate with ``eval`` inside the page, which the
    site's Content-Security-Policy forbids (no ``'unsafe-eval'``); ``page.evaluate`` runs
    through the browser's debugging protocol, which the policy does not govern."""
    truth = f"(() => {{ const v = ({expression}); return Boolean(typeof v === 'function' ? v() : v); }})()"
    return until(
        lambda: page.evaluate(truth),
        timeout=timeout,
        what=expression,
        pause=lambda s: page.wait_for_timeout(s * 1000),
    )
