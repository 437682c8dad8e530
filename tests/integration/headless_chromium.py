"""A page opened as a person opens it: Debian's Chromium (`make chromium` installs it), headless,
driven by Playwright, which never downloads a browser of its own here. The page is read from its
file; every request the browser makes is recorded, so a test can say the page made none."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
# Headless in a container, as root, with no GPU, and nothing of Chromium's own talking to the
# network (updates, sync, QUIC probes): what is left is what the page asks for.
ARGUMENTS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 1000}


@dataclass
class Opened:
    page: Any  # playwright.sync_api.Page
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    load_seconds: float = 0.0


@contextmanager
def browser_page() -> Iterator[Any]:
    """A page of a new headless Chromium, closed with the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
        try:
            yield browser.new_page(viewport=VIEWPORT)
        finally:
            browser.close()


@contextmanager
def opened(path: Path) -> Iterator[Opened]:
    """The page at ``path`` loaded in a new browser: its load time is from the navigation's
    start to its load event, as the browser's own timing reports it."""
    with browser_page() as page:
        found = Opened(page)
        page.on("request", lambda request: found.requests.append(request.url))
        page.on("pageerror", lambda error: found.errors.append(str(error)))
        page.goto(path.resolve().as_uri(), wait_until="load")
        found.load_seconds = page.evaluate(
            "() => { const t = performance.getEntriesByType('navigation')[0];"
            " return (t.loadEventEnd - t.startTime) / 1000; }"
        )
        yield found
