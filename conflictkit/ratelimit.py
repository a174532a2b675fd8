"""Living with a remote API's rate limit: adaptive concurrency (AIMD) and jittered backoff.

Used by :mod:`conflictkit.remote`, through which every backend that calls a hosted API sends its requests.

A 429 halves the number of requests allowed in flight (never below one); each success adds
``1/limit``, so the limit grows back by about one per round of requests (TCP's congestion rule).
A rate-limited request waits what the server advertised (``retry-after-ms`` / ``retry-after``),
else an exponentially growing, jittered delay, so parallel workers do not retry in lockstep.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

BACKOFF_BASE = 0.5  # seconds before the first retry when the server advertises nothing
BACKOFF_CAP = 20.0  # longest wait between two tries of one request
RETRY_AFTER_CAP = 120.0  # a longer ask is waited out in steps of this, one try after each


class AdaptiveLimit:
    """At most ``limit`` holders of a slot at once; the limit moves between 1 and ``ceiling`` by AIMD."""

    def __init__(self, ceiling: int) -> None:
        self.ceiling = ceiling
        self.limit = float(ceiling)
        self.lowest = float(ceiling)  # how far a storm pushed it down (for messages and tests)
        self._in_flight = 0
        self._cond = threading.Condition()

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._cond:
            while self._in_flight >= max(1, int(self.limit)):
                self._cond.wait()
            self._in_flight += 1
        try:
            yield
        finally:
            with self._cond:
                self._in_flight -= 1
                self._cond.notify_all()

    def succeeded(self) -> None:
        with self._cond:
            self.limit = min(float(self.ceiling), self.limit + 1.0 / self.limit)
            self._cond.notify_all()

    def throttled(self) -> None:
        with self._cond:
            self.limit = max(1.0, self.limit / 2)
            self.lowest = min(self.lowest, self.limit)


def advertised_delay(headers: Mapping[str, str] | None) -> float | None:
    """Seconds the server asked to wait (``retry-after-ms``, else ``retry-after`` in seconds), if any."""
    if not headers:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue  # an HTTP date: rare for 429s; fall back to our own backoff
        if seconds >= 0:
            return min(seconds, RETRY_AFTER_CAP)
    return None


def backoff_delay(attempt: int, advertised: float | None, rng: random.Random | None = None,
                  base: float = BACKOFF_BASE, cap: float = BACKOFF_CAP) -> float:
    """How long to wait before try ``attempt + 1`` of a request that got a 429 (or a 5xx, a timeout).

    The advertised delay plus up to 20% (never earlier than asked), else full jitter over an
    exponentially growing window starting at ``base`` seconds.
    """
    draw = (rng or random).random()
    if advertised is not None:
        return advertised * (1.0 + 0.2 * draw)
    window = min(cap, base * 2**attempt)
    return window * (0.5 + 0.5 * draw)
