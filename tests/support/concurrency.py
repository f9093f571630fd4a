"""Calls run at once, for the tests of races: each in its own thread (so with its own
database connection, closed when it ends), all released together by one barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def at_once(calls: list[Callable[[], object]], timeout: float = 120) -> list:
    """What each call returned, or the exception it raised, in the order of ``calls``."""
    start = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(k: int) -> None:
        try:
            start.wait()
            results[k] = calls[k]()
        except Exception as error:
            results[k] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results
