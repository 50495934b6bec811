"""The web companion's core (issue 32): every response carries the strict
Content-Security-Policy and the other security headers; every HTTP error and every
unexpected exception is a plain page with its status and no trace; over-long query
strings and paths are refused before any handler; a server's pages exist only while its
web is on, and only under its current slug."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.settings.service import Manager, ServerConfig
from bot.web.app import (
    CONTENT_SECURITY_POLICY,
    MAX_QUERY,
    SECURITY_HEADERS,
    SERVER_OPTIONS,
    build_app,
)
from storage import Store

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning:aiohttp")

MOD = Manager(1, "mod", manages_server=True)
GUILD = 77


@dataclass
class Site:
    client: TestClient
    store: Store
    slug: str


async def _boom(request: web.Request) -> web.Response:
    raise RuntimeError("secret internals /etc/passwd")


@pytest.fixture
async def site(store: Store) -> AsyncIterator[Site]:
    slug = (await ServerConfig(store).set_web(MOD, GUILD, True)).slug
    app = build_app(store, clock=FakeClock())
    app.router.add_get("/boom", _boom)  # an unexpected failure, as a page might have
    async with TestClient(TestServer(app, **SERVER_OPTIONS)) as client:
        yield Site(client, store, slug)


def assert_secured(response: web.StreamResponse | object) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value, name


def assert_plain(body: str, status: int) -> None:
    assert body.startswith("<!DOCTYPE html>") and f"Error {status}" in body
    assert "Traceback" not in body and "File \"" not in body and "secret" not in body


async def test_every_response_is_secured(site: Site) -> None:
    for url, status in ((f"/s/{site.slug}/", 200), ("/static/site.css", 200),
                        ("/nowhere", 404), ("/s/x/", 404), (f"/s/{site.slug}/?" + "q" * 2000, 400),
                        ("/boom", 500), ("/static/../pyproject.toml", 404)):
        response = await site.client.get(url)
        assert response.status == status, url
        assert_secured(response)
    response = await site.client.post(f"/s/{site.slug}/")
    assert response.status == 405
    assert_secured(response)


async def test_the_csp_forbids_inline_code() -> None:
    assert "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY


async def test_errors_are_plain_pages(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    for url, status in (("/nowhere", 404), ("/s/x/", 404), ("/s/" + "A" * 22 + "/", 404),
                        (f"/s/{site.slug}/leaderboard/flank?page=x", 400)):
        response = await site.client.get(url)
        assert response.status == status
        assert response.content_type == "text/html"
        assert_plain(await response.text(), status)
    with caplog.at_level(logging.ERROR, logger="bot.web.app"):
        response = await site.client.get("/boom")
    assert response.status == 500
    assert_plain(await response.text(), 500)
    assert "secret internals" in caplog.text  # logged for the operator, not shown
    response = await site.client.post(f"/s/{site.slug}/")
    assert response.status == 405 and response.headers["Allow"] == "GET,HEAD"
    assert_plain(await response.text(), 405)


async def test_an_error_page_does_not_link_the_slug(site: Site) -> None:
    response = await site.client.get(f"/s/{site.slug}/players/999")
    assert response.status == 404
    assert site.slug not in await response.text()


async def test_long_queries_and_paths_are_refused(site: Site) -> None:
    for length in (MAX_QUERY + 1, 100_000):
        response = await site.client.get(f"/s/{site.slug}/?q=" + "x" * length)
        assert response.status == 400, length
        body = await response.text()
        assert_plain(body, 400)
        assert "xxxx" not in body
        assert_secured(response)
    response = await site.client.get(f"/s/{site.slug}/?q=" + "x" * (MAX_QUERY - 10))
    assert response.status == 200
    response = await site.client.get(f"/s/{site.slug}/" + "a/" * 400)
    assert response.status == 404
    assert_plain(await response.text(), 404)


async def test_head_reads_and_nothing_writes(site: Site) -> None:
    assert (await site.client.head(f"/s/{site.slug}/")).status == 200
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        response = await site.client.request(method, f"/s/{site.slug}/players/1")
        assert response.status == 405, method


async def test_pages_exist_only_while_the_web_is_on(site: Site) -> None:
    config = ServerConfig(site.store)
    assert (await site.client.get(f"/s/{site.slug}/")).status == 200
    await config.set_web(MOD, GUILD, False)
    response = await site.client.get(f"/s/{site.slug}/")
    assert response.status == 404
    assert_plain(await response.text(), 404)
    await config.set_web(MOD, GUILD, True)
    assert (await site.client.get(f"/s/{site.slug}/")).status == 200


async def test_rotating_retires_the_old_address(site: Site) -> None:
    new = (await ServerConfig(site.store).rotate_web(MOD, GUILD)).slug
    assert (await site.client.get(f"/s/{site.slug}/")).status == 404
    assert (await site.client.get(f"/s/{site.slug}/leaderboard/flank")).status == 404
    assert (await site.client.get(f"/s/{new}/")).status == 200


async def test_slugs_are_checked_before_the_store(site: Site) -> None:
    for slug in ("short", "a" * 65, "bad%20slug", "..", "%3Cscript%3E"):
        response = await site.client.get(f"/s/{slug}/")
        assert response.status == 404, slug


def test_a_request_aiohttp_cannot_parse_is_one_line_at_info_not_an_error() -> None:
    """Raw bytes in a request line are the client's mistake, answered with a plain 400:
    logged as one line, not as an ERROR with a traceback anyone could repeat."""
    import logging
    import sys

    from aiohttp.http_exceptions import InvalidURLError

    from bot.web.serve import REFUSED_REQUESTS

    def record(error: BaseException) -> logging.LogRecord:
        try:
            raise error
        except BaseException:
            return logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1,
                                     "Error handling request from %s", ("127.0.0.1",),
                                     sys.exc_info())

    refused = record(InvalidURLError(b"GET /\x00 HTTP/1.1"))
    assert REFUSED_REQUESTS.filter(refused)
    assert (refused.levelno, refused.exc_info) == (logging.INFO, None)
    assert refused.getMessage() == ("Error handling request from 127.0.0.1: refused "
                                    "(InvalidURLError)")
    ours = record(RuntimeError("a bug of ours"))
    assert REFUSED_REQUESTS.filter(ours)
    assert ours.levelno == logging.ERROR and ours.exc_info is not None
