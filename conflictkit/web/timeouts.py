"""Slow clients time out: a connection whose request headers are late, or whose body stalls, is closed.

uvicorn closes an idle keep-alive connection, but waits for ever on one that opens and then sends
its headers a byte at a time (a "slowloris": 150 such connections stayed open for 45 s), or that
stops half-way through an upload. This protocol gives each request ``HEADER_SECONDS`` from the
moment the connection opens (or the previous response ends) to send its headers, and lets a body
pause for at most ``BODY_PAUSE_SECONDS`` between two pieces.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
BODY_PAUSE_SECONDS = 30.0


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers and a pause limit for its body."""

    header_seconds = HEADER_SECONDS
    body_pause_seconds = BODY_PAUSE_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm(self.header_seconds)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._answering():  # the headers are in: the body, if one is coming, may pause so long at a time
            self._arm(self.body_pause_seconds) if self._reading_body() else self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self._answering():
            self._arm(self.header_seconds)  # the next request on this connection has as long again

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _answering(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _reading_body(self) -> bool:
        return self.conn.their_state is h11.SEND_BODY

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self._answering() and not self._reading_body():
            return  # the request is in; the app is answering it
        if not self.transport.is_closing():
            self.transport.close()  # uvicorn tells the app the client went away
