"""How long to wait before trying again: doubling delays, reset once things ran steadily."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Backoff:
    """Delays from `first` doubling to `cap`; a run that lasted `steady_s` or more starts them over,
    so a thing that cannot start does not spin, and one that failed once in a while waits little."""

    first: float = 0.5
    cap: float = 5.0
    steady_s: float = 10.0
    _next: float = 0.0

    def delay(self, ran_s: float) -> float:
        """The wait before the next try, after a run that lasted `ran_s` seconds."""
        if ran_s >= self.steady_s or not self._next:
            self._next = self.first
        delay, self._next = self._next, min(self._next * 2, self.cap)
        return delay
