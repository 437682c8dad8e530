"""dbt's docs site as a person browses it: the target folder served on 127.0.0.1 (the site reads
manifest.json and catalog.json with requests a file:// page may not make), opened in headless
Chromium (headless_chromium.py)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.integration.headless_chromium import browser_page


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """The tests' output is not the place for each request the site makes."""


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """``folder`` served over HTTP on 127.0.0.1 while the block runs: its address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def docs_pages(address: str) -> Iterator[Callable[[str, str], str]]:
    """A function giving the text a person reads on a page of the docs site at ``address``
    (``route``: what follows ``#!/``), once ``expected`` shows on it."""
    with browser_page() as page:

        def text_of(route: str, expected: str) -> str:
            page.goto(f"{address}/index.html#!/{route}")
            page.get_by_text(expected).first.wait_for(timeout=60_000)
            return page.inner_text("body")

        yield text_of
