"""How long to wait for an answer: from the endpoint's measured speed, so a slow local model is not cut off.

A CPU llama.cpp server reads a prompt at 50-500 tokens/s and writes 5-30 tokens/s: an explain
request with two documents in context can take minutes before its first token, and a fixed
60-second timeout abandons it again and again while the server keeps computing. So:

- a streamed answer may be silent for ``timeout`` seconds between two pieces, and before its first
  piece for ``timeout`` plus twice the time its prompt takes at the slowest prompt speed measured
  so far (``prompt_tokens_per_s`` until one is measured);
- an answer that is not streamed also gets twice the time its ``max_tokens`` take at the slowest
  writing speed measured (``tokens_per_s`` until then);
- ``max_request_s``, when set, caps a request in all: a streamed answer that runs over is cut and
  its connection closed, which is how a server learns to stop.

Speeds are measured from streamed answers (time to the first piece over the prompt's tokens; the
rest of the answer's tokens over the rest of its time) and kept as the slowest seen, so one fast
cached-prompt answer does not shorten the next request's wait.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

MARGIN = 2.0  # a request may take twice what the measured speed says before it is given up
MIN_MEASURED_TOKENS = 16  # shorter prompts and answers say more about latency than about speed


@dataclass
class Pace:
    """The slowest prompt-reading and writing speeds seen on one endpoint, and the waits they imply."""

    silence_s: float
    prompt_tokens_per_s: float
    tokens_per_s: float
    max_request_s: float | None = None
    measured_prompt: float | None = None
    measured_writing: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def first_piece_s(self, prompt_tokens: int) -> float:
        """Seconds to wait for the first piece of an answer to a prompt of ``prompt_tokens``."""
        rate = self.measured_prompt or self.prompt_tokens_per_s
        return self._capped(self.silence_s + MARGIN * prompt_tokens / rate)

    def whole_answer_s(self, prompt_tokens: int, max_tokens: int) -> float:
        """Seconds to wait for an answer that arrives in one piece (not streamed)."""
        rate = self.measured_writing or self.tokens_per_s
        return self._capped(self.first_piece_s(prompt_tokens) + MARGIN * max_tokens / rate)

    def _capped(self, seconds: float) -> float:
        return min(seconds, self.max_request_s) if self.max_request_s else seconds

    def observe(self, prompt_tokens: int, first_piece_s: float, answer_tokens: int, total_s: float) -> None:
        """Record one streamed answer's speeds (the slowest of each is kept)."""
        with self._lock:
            if prompt_tokens >= MIN_MEASURED_TOKENS and first_piece_s > 0:
                rate = prompt_tokens / first_piece_s
                self.measured_prompt = rate if self.measured_prompt is None else min(self.measured_prompt, rate)
            writing = total_s - first_piece_s
            if answer_tokens >= MIN_MEASURED_TOKENS and writing > 0:
                rate = answer_tokens / writing
                self.measured_writing = rate if self.measured_writing is None else min(self.measured_writing, rate)

    def report(self) -> dict:
        """What usage() shows: the measured speeds (None before any streamed answer long enough to tell)."""
        return {"prompt_tokens_per_s": _rounded(self.measured_prompt), "tokens_per_s": _rounded(self.measured_writing)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
