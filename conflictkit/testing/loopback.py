"""A fake HTTP API, in-process or on 127.0.0.1, for fakes that answer ``handle(method, path, headers, raw)``."""

from __future__ import annotations

import socket
import struct
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Body = bytes | Iterator[bytes]
"""A response body: bytes, or an iterator of pieces sent as they come (chunked; a streamed answer)."""
Handle = Callable[[str, str, dict[str, str], bytes], tuple[int, dict[str, str], Body]]


@dataclass
class Request:
    """One request a fake API received, as it received it (its body parsed as JSON, None if not JSON)."""

    path: str
    body: Any
    status: int = 0  # -1: the connection was dropped without an answer
    authorization: str | None = None
    corrupted: str | None = None  # the broken answer it got instead of a good one (status 200)

    @property
    def answered(self) -> bool:
        """Whether it got a good answer (a client had every reason to keep it)."""
        return self.status == 200 and self.corrupted is None


STORMS: dict[str, dict[str, Any]] = {
    "500": {"status": 500},
    "503": {"status": 503},
    "429": {"status": 429, "retry_after": 0.01},
    "hang past the timeout": {"status": None, "delay": 1.0},
    "connection reset": {"status": None, "reset": True},
}
"""The faults issue 24 names, as keyword arguments of a fake's ``storm(every=N, **STORMS[name])``
(``FakeIsaacus``, ``FakeOpenAI``): a client must ride out each on every second request."""


@dataclass
class Fault:
    """An injected answer for the next ``times`` requests matching ``path`` (None: any path): a
    status (with a retry-after), a delay before answering, a connection dropped without an answer
    (``reset``), or a named corruption of the answer."""

    status: int | None = None
    delay: float = 0.0
    times: int = 1
    path: str | None = None
    retry_after: float | None = None
    corruption: str | None = None
    reset: bool = False


class Reset(Exception):
    """Raised by a fake's ``handle`` to drop the connection without answering (a reset by the peer)."""


@dataclass
class Storm:
    """``fault`` on every ``every``-th request from now on (counted over all paths)."""

    every: int
    fault: Fault
    seen: int = 0

    def take(self) -> Fault | None:
        self.seen += 1
        return self.fault if self.seen % self.every == 0 else None


# Bodies a broken server or a proxy in front of it sends with status 200, by corruption name.
BROKEN_BODIES = {
    "html": ("text/html", b"<!DOCTYPE html><html><head><title>Gateway</title></head><body>Please log in</body></html>"),
    "empty": ("application/json", b""),
}


def take_fault(faults: deque[Fault], path: str | None = None) -> Fault | None:
    """The first queued fault for ``path``, counted down and dropped once used up; the caller holds its lock."""
    for fault in faults:
        if fault.path is None or fault.path == path:
            fault.times -= 1
            if fault.times <= 0:
                faults.remove(fault)
            return fault
    return None


def mock_transport(handle: Handle):
    """An ``httpx.MockTransport`` answering every request in-process with ``handle`` (needs httpx)."""
    import httpx

    def handler(req: httpx.Request) -> httpx.Response:
        headers = {k.lower(): v for k, v in req.headers.items()}
        try:
            status, extra, content = handle(req.method, req.url.path, headers, req.read())
        except Reset:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=req) from None
        if isinstance(content, bytes):
            return httpx.Response(status, headers=extra, content=content)
        return httpx.Response(status, headers=extra, stream=_Pieces(content))

    class _Pieces(httpx.SyncByteStream):
        """A streamed body: closing the response closes the stream, as a dropped connection would."""

        def __init__(self, pieces: Iterator[bytes]) -> None:
            self._pieces = pieces

        def __iter__(self) -> Iterator[bytes]:
            try:
                yield from self._pieces
            except Reset:
                raise httpx.RemoteProtocolError("peer closed connection without sending complete message body") from None

        def close(self) -> None:
            close = getattr(self._pieces, "close", None)
            if close is not None:
                close()

    return httpx.MockTransport(handler)


class LoopbackServer:
    """Serves ``handle`` on a free port of 127.0.0.1, one thread per request; ``base_url`` for clients."""

    def __init__(self, handle: Handle, name: str = "fake-api") -> None:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(handle))
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, name=name, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _handler_class(handle: Handle) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                status, extra, content = handle(self.command, self.path, headers, raw)
            except Reset:  # close with SO_LINGER 0: the client reads a reset, not an answer
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                return
            try:
                self.send_response(status)
                for key, value in extra.items():
                    self.send_header(key, value)
                if isinstance(content, bytes):
                    self.send_header("content-length", str(len(content)))
                    self.end_headers()
                    self.wfile.write(content)
                else:
                    self._stream(content)
            except Reset:  # mid-stream: the client reads a reset where the rest of the answer should be
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing to answer
            finally:
                if not isinstance(content, bytes):
                    content.close()  # a stream cut short learns it here (GeneratorExit)

        def _stream(self, pieces) -> None:
            """Send each piece as one chunk as soon as it is made; a closed connection stops the stream."""
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            for piece in pieces:
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        do_POST = _serve
        do_GET = _serve

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

    return Handler
