"""A progress bar for long steps, drawn only on a terminal."""

from __future__ import annotations

import sys
from typing import TextIO

WIDTH = 30


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(1, total)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.done = 0

    def advance(self, steps: int = 1) -> None:
        self.done = min(self.total, self.done + steps)
        if self.enabled:
            filled = WIDTH * self.done // self.total
            bar = "█" * filled + "·" * (WIDTH - filled)
            self.stream.write(f"\r{self.label} {bar} {self.done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
