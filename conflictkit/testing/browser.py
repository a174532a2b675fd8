"""Headless Chromium for browser tests: Debian's /usr/bin/chromium driven by Playwright for Python.

Playwright's own browser download is never used (``playwright install`` needs the network);
``CONFLICTKIT_CHROMIUM`` points at another binary. Browser tests skip, saying why, only when the
browser is missing; a missing ``playwright`` package is an error (it is in the ``test`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
]


def chromium_path() -> str:
    return os.environ.get("CONFLICTKIT_CHROMIUM", "/usr/bin/chromium")


def missing() -> str | None:
    """Why browser tests cannot run here (no Chromium), or None when they can."""
    if not Path(chromium_path()).exists():
        return f"no Chromium at {chromium_path()} (apt-get install chromium, or set CONFLICTKIT_CHROMIUM)"
    return None


@contextmanager
def chromium() -> Iterator[object]:
    """A launched headless Chromium (a Playwright ``Browser``) with a fresh temporary profile."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ImportError("browser tests need the playwright package: pip install playwright (never `playwright install`)") from None

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def block_network(context) -> list[str]:
    """Abort every request that is not a file:// or data: URL; returns the list of aborted URLs."""
    blocked: list[str] = []

    def route(route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", route)
    return blocked
