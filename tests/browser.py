"""Headless Chromium over the web companion, for the browser suite
(tests/test_web_browser.py) and the screenshots script (tests/web_screenshots.py).

Debian's ``chromium`` is driven by Playwright's Python package (Playwright's own browser
download cannot work on these machines: they have no network), with the flags that
keep it from reaching for one. The app (:func:`bot.web.app.build_app`) is served on
127.0.0.1 from a thread of its own, with its own event loop, over a copy of the store
:mod:`tests.webstore` fills, opened read-only as ``croupier web`` opens it; the
browser's tests are then plain synchronous functions (Playwright's sync API).

axe-core comes from the npm registry (``make test`` installs it into the venv: the
Makefile's ``browser`` target). Without Chromium, Playwright or axe-core the suite
skips, saying how to install what is missing.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.clock import FakeClock
from storage import Store
from tests.webstore import WebData

CHROMIUM = Path(os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium"))
AXE = Path(os.environ.get("CROUPIER_AXE", Path(sys.prefix) / "axe" / "node_modules"
                          / "axe-core" / "axe.min.js"))
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
"""Headless, as root (no sandbox), and nothing that would try the network. Playwright
gives every launch a fresh user-data dir of its own."""
WIDTHS = {"phone": (390, 844), "desktop": (1280, 800)}
"""Viewports (width, height) every page is seen at."""
FAILING = frozenset({"moderate", "serious", "critical"})
"""axe-core's impacts that fail a page: the issue asks for no serious violation; the
moderate ones (headings out of order, content outside landmarks) fail too, as the
project's own rules for pages ask."""
VIEWPORT = "width=device-width, initial-scale=1"
"""Every page's viewport meta tag."""
SCREENSHOT_BYTES = 300_000
"""The most a screenshot may weigh (they live in the repository, docs/web/)."""
SCREENSHOT_HEIGHT = {390: 1688, 1280: 1200}
"""A full-page screenshot is cut at this height by width (a phone's: two screens), so a
long page stays small."""


def missing() -> str | None:
    """Why the browser suite cannot run here (with how to fix it), or ``None``."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: make test installs the dev dependencies"
    if not CHROMIUM.is_file():
        return (f"no Chromium at {CHROMIUM}: `apt-get install chromium` (as root; "
                "`make test` does it), or set CROUPIER_CHROMIUM")
    if not AXE.is_file():
        return (f"no axe-core at {AXE}: `make browser` installs it from the npm registry "
                "(or set CROUPIER_AXE)")
    return None


# -- the pages -----------------------------------------------------------------------------
def pages(data: WebData) -> dict[str, str]:
    """Every kind of page of the filled store, by a short name (the screenshots' file
    names), as paths under the site."""
    base = f"/s/{data.slug}"
    found = {
        "index": f"{base}/",
        "tournament-swiss": f"{base}/tournaments/{data.swiss_id}",
        "tournament-double": f"{base}/tournaments/{data.double_id}",
        "tournament-running": f"{base}/tournaments/{data.running_id}",
        **{f"replay-{game}": f"{base}/matches/{match}" for game, match in data.matches.items()},
        **{f"leaderboard-{game}": f"{base}/leaderboard/{game}" for game in data.matches},
        "player": f"{base}/players/{min(data.people)}",
        "player-collector": f"{base}/players/{data.collector_id}",
        "player-hidden": f"{base}/players/{data.hidden_id}",
        "cards": f"{base}/cards",
        "cards-search": f"{base}/cards?q=t%3Acreature+pow%3E%3D3",
        "card": f"{base}/cards/{data.card}",
    }
    return found


SHOWN = ("index", "tournament-swiss", "tournament-double", "replay-eclipse", "replay-duel",
         "leaderboard-flank", "player", "cards", "card")
"""The pages docs/web.md shows (one or two of each kind: the screenshots live in the
repository)."""


# -- the app, served from a thread ----------------------------------------------------------
@dataclass
class Served:
    """The web app over a store, served on 127.0.0.1 by a thread's event loop."""

    path: Path
    base_url: str = ""
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.new_event_loop)
    _thread: threading.Thread | None = None
    _runner: web.AppRunner | None = None
    _store: Store | None = None

    def start(self) -> Served:
        """Serving, once this returns."""
        self._thread = threading.Thread(target=self.loop.run_forever, name="web", daemon=True)
        self._thread.start()
        port = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(60)
        self.base_url = f"http://127.0.0.1:{port}"
        return self

    async def _start(self) -> int:
        from bot.web.app import SERVER_OPTIONS, build_app

        self._store = await Store.open(self.path, read_only=True)
        self._runner = web.AppRunner(build_app(self._store, clock=FakeClock()),
                                     **SERVER_OPTIONS)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return int(self._runner.addresses[0][1])

    def stop(self) -> None:
        """Nothing served, nothing left running."""
        if self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(30)
        self.loop.close()
        self._thread = None

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._store is not None:
            await self._store.close()


@contextmanager
def served(path: Path) -> Iterator[Served]:
    """The app served over the store at ``path`` for the ``with`` block."""
    site = Served(path).start()
    try:
        yield site
    finally:
        site.stop()


# -- the browser ----------------------------------------------------------------------------
@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, for the ``with`` block (a Playwright ``Browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(FLAGS),
                                             headless=True, timeout=30_000)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Tab:
    """A page in a viewport, with everything the console said while it was open.

    axe-core is added to every document before the page's own scripts run (an init
    script: the strict Content-Security-Policy would refuse it as a script tag)."""

    page: Any
    errors: list[str] = field(default_factory=list)
    """Console errors and warnings (a CSP violation is one), and uncaught exceptions."""

    def heard(self, message: Any) -> None:
        """A console message: errors and warnings are kept (a browser's own request for
        ``/favicon.ico``, which no page asks for, aside)."""
        if message.type not in ("error", "warning"):
            return
        if (message.location or {}).get("url", "").endswith("/favicon.ico"):
            return
        self.errors.append(f"console {message.type}: {message.text}")

    def go(self, url: str) -> int:
        """Open ``url``; its HTTP status."""
        response = self.page.goto(url, wait_until="load")
        return response.status if response is not None else 0

    def overflow(self) -> int:
        """How far the page is wider than its viewport, in CSS pixels (0: none)."""
        return int(self.page.evaluate(
            "document.documentElement.scrollWidth - window.innerWidth"))

    def axe(self) -> list[dict[str, Any]]:
        """axe-core's violations of the page that fail it (:data:`FAILING`: id, impact,
        help and the first few offending elements)."""
        result = self.page.evaluate(
            "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
            " return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})); }")
        return [v for v in result if v["impact"] in FAILING]

    def shape(self) -> list[str]:
        """What the project's rules for pages ask that axe-core does not check."""
        found = self.page.evaluate(
            "() => [document.documentElement.lang,"
            " document.querySelector('meta[name=viewport]')?.content ?? '',"
            " document.querySelectorAll('th:not([scope])').length,"
            " document.querySelectorAll('h1').length]")
        lang, viewport, unscoped, h1 = found
        problems = [] if lang == "en" else [f"lang {lang!r}"]
        if viewport != VIEWPORT:
            problems.append(f"viewport {viewport!r}")
        if unscoped:
            problems.append(f"{unscoped} <th> without scope")
        if h1 != 1:
            problems.append(f"{h1} <h1>")
        return problems

    def screenshot(self, target: Path) -> int:
        """A PNG of the page (the whole page up to :data:`SCREENSHOT_HEIGHT`); its size."""
        width = self.page.viewport_size["width"]
        height = min(SCREENSHOT_HEIGHT.get(width, 1200), int(self.page.evaluate(
            "document.documentElement.scrollHeight")))
        target.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(target), full_page=True,
                             clip={"x": 0, "y": 0, "width": width, "height": height})
        return target.stat().st_size


@contextmanager
def tab(browser: Any, width: str = "desktop", *, javascript: bool = True) -> Iterator[Tab]:
    """A fresh context and page at ``width`` (:data:`WIDTHS`) for the ``with`` block."""
    size = WIDTHS[width]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  java_script_enabled=javascript, service_workers="block")
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    opened = Tab(page)
    page.on("console", opened.heard)
    page.on("pageerror", lambda error: opened.errors.append(f"uncaught: {error}"))
    try:
        yield opened
    finally:
        context.close()
