"""A one-line progress bar on stderr, redrawn in place on a terminal."""

from __future__ import annotations

import sys


def bar(fraction: float | None, status: str, width: int = 30) -> str:
    if fraction is None:
        return f"[{'?' * width}] {status}"
    filled = int(round(max(0.0, min(1.0, fraction)) * width))
    return f"[{'#' * filled}{'.' * (width - filled)}] {fraction * 100:3.0f}% {status}"


class Progress:
    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.last = None

    def show(self, fraction: float | None, status: str) -> None:
        line = bar(fraction, status)
        if line == self.last:
            return
        self.last = line
        self.stream.write(("\r" + line) if self.live else line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.live and self.last is not None:
            self.stream.write("\n")
            self.stream.flush()
