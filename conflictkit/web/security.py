"""The guard in front of every request: token, Host and Origin checks, body size, security headers.

Written as one plain ASGI wrapper, outside Starlette, so nothing (static files included) is served
before it has run. Why each check:
- token: off loopback, anyone on the network could read the documents;
- Host: a web page could rebind its DNS name to 127.0.0.1 and read the app (DNS rebinding);
- Origin: a web page could post a form to the local app (CSRF);
- body size: an upload is refused before it is read, not after it has filled the disk.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.requests import ClientDisconnect

TOKEN_COOKIE = "conflictkit_token"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
DRAIN_FACTOR = 4  # read (and drop) up to this many times the limit, so the client sees the 413
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server reachable from this machine only."""
    if host.strip("[]") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class BodyTooLarge(Exception):
    """Raised from ``receive`` when a body without Content-Length passes the limit."""


def too_large_message(limit: int) -> str:
    return f"upload too large: the limit is {limit / 1e6:g} MB (start the server with a larger --max-upload-mb to allow more)"


class Guard:
    """ASGI middleware applying the checks above to every HTTP request."""

    def __init__(self, app, *, token: str | None, max_body: int, loopback: bool, host: str | None = None) -> None:
        self.app, self.token, self.max_body, self.loopback = app, token, max_body, loopback
        # the address the server is bound to is a name it answers as (127.0.0.2, a loopback alias...)
        bound = urlsplit("//" + (f"[{host.strip('[]')}]" if host and ":" in host else host or "")).hostname
        self.host_names = LOOPBACK_NAMES | {"::1"} | ({bound} if bound else set())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        send = _with_headers(send)
        problem = self._host_problem(headers) or self._origin_problem(scope, headers)
        if problem:
            return await _respond(send, 403 if "Origin" in problem else 400, problem)
        if self.token is not None:
            verdict = self._token_verdict(scope, headers)
            if verdict == "redirect":
                return await _redirect_setting_cookie(scope, send, self.token)
            if verdict != "ok":
                return await _respond(send, 401, "this server needs its access token: open the address printed by "
                                      "`conflictkit serve` (it ends in ?token=...), or send 'Authorization: Bearer TOKEN'")
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            await _drain(receive, int(length), self.max_body * DRAIN_FACTOR)
            return await _respond(send, 413, too_large_message(self.max_body))
        try:
            return await self.app(scope, _limited(receive, self.max_body), send)
        except ClientDisconnect:
            return None  # the client went, or stalled and was cut off (conflictkit.web.timeouts): no one to answer

    def _host_problem(self, headers: dict) -> str | None:
        if not self.loopback:
            return None  # the token protects a server bound elsewhere
        try:
            host = urlsplit("//" + headers.get("host", "")).hostname or ""
        except ValueError:  # a malformed Host (an unclosed '[') is just not one of ours
            host = ""
        if host in self.host_names:
            return None
        names = " or ".join(sorted(self.host_names - {"[::1]", "::1"}))
        return f"unexpected Host header {headers.get('host', '')!r}: this server answers only as {names}"

    def _origin_problem(self, scope, headers: dict) -> str | None:
        origin = headers.get("origin")
        if scope["method"] in ("GET", "HEAD", "OPTIONS") or origin is None:
            return None
        if urlsplit(origin).netloc == headers.get("host"):
            return None
        return f"Origin {origin!r} is not this server: cross-site requests are refused"

    def _token_verdict(self, scope, headers: dict) -> str:
        expected = self.token.encode()
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer ") and hmac.compare_digest(auth[7:].strip().encode(), expected):
            return "ok"
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is just no cookie
            cookie = SimpleCookie()
        if TOKEN_COOKIE in cookie and hmac.compare_digest(cookie[TOKEN_COOKIE].value.encode(), expected):
            return "ok"
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if "token" in query and hmac.compare_digest(query["token"].encode(), expected):
            return "redirect" if scope["method"] == "GET" else "ok"
        return "missing"


def _with_headers(send):
    """Add the security headers to every response that does not set its own policy."""

    async def wrapped(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            names = {k.lower() for k, _ in headers}
            extra = {
                b"content-security-policy": CSP.encode(),
                b"x-content-type-options": b"nosniff",
                b"referrer-policy": b"same-origin",
                b"x-frame-options": b"DENY",
            }
            headers += [(k, v) for k, v in extra.items() if k not in names]
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


def _limited(receive, limit: int):
    seen = 0

    async def wrapped():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise BodyTooLarge(too_large_message(limit))
        return message

    return wrapped


async def _drain(receive, length: int, cap: int) -> None:
    if length > cap:
        return  # not worth reading: the client will see the connection close after the 413
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            return


async def _respond(send, status: int, message: str) -> None:
    body = (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>conflictkit</title></head>"
        f"<body><h1>{status}</h1><p class=\"error\" role=\"alert\">{html.escape(message)}</p></body></html>"
    ).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


async def _redirect_setting_cookie(scope, send, token: str) -> None:
    """Move the token from the URL into an HttpOnly cookie, so it leaves the address bar and history."""
    query = [(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1")) if k != "token"]
    path = b"/" + (scope.get("raw_path") or scope["path"].encode("utf-8")).lstrip(b"/")  # never //host
    location = path + (("?" + urlencode(query)).encode("latin-1") if query else b"")
    cookie = f"{TOKEN_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
    await send({"type": "http.response.start", "status": 303, "headers": [
        (b"location", location), (b"set-cookie", cookie.encode("latin-1")), (b"content-length", b"0"),
    ]})
    await send({"type": "http.response.body", "body": b""})
