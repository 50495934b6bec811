"""The web companion under hostile and bad input, over a store filled through the real
services (tests/webstore.py).

Names typed by people are text on every page that shows them (markup, template syntax
and Markdown included); unknown slugs, ids and garbage path parts are plain 404/400
pages without a trace; a query string of 100,000 characters and a search matching
everything get bounded answers; every response carries the Content-Security-Policy;
and the server is read-only: crawling every page, picture and link of the filled store
(same-site ``href`` and ``src``) leaves every table exactly as it was, with the store
opened for writing so that a write would have landed.

The crawl runs once for the module, in a thread with its own event loop; the tests
then read what it fetched.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, urljoin, urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer
from yarl import URL

from bot.clock import FakeClock
from bot.web.app import CONTENT_SECURITY_POLICY, SERVER_OPTIONS, build_app
from storage import Store
from storage.connection import connect_read_only
from tests.browser import pages
from tests.webstore import (
    HOSTILE_NAMES,
    MARKDOWN,
    PEOPLE,
    QUOTES,
    RUNNING_NAME,
    SCRIPT,
    TEMPLATE,
    WebData,
    filled_copy,
    run_apart,
)

MOST_FETCHES = 900
"""The crawl stops here (a page whose links never end must not hang the suite)."""
PER_SHAPE = 8
"""Fetches of addresses of one :func:`shape` (the steps of one replay, the pictures of
the gallery): every page is crawled, and a few of each page's variants."""
TRACE = re.compile(r"Traceback|File \"|line \d+, in|Error:|Exception|aiohttp\.|jinja2\.",
                   re.IGNORECASE)
"""What a stack trace or an internal error's name would leave in a page."""
PLAIN_PAGE_BYTES = 20_000
"""An error page is short."""
BOUNDED_BYTES = 2_000_000
"""The most any answer may weigh, whatever was asked."""
MAX_QUERY = 100_000


# -- reading pages --------------------------------------------------------------------------
class Page(HTMLParser):
    """What a page shows (its text, and the alt, title and aria-label texts), its tags,
    and the addresses it links to."""

    TEXT_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder", "value")
    LINK_ATTRIBUTES = ("href", "src", "xlink:href", "action", "poster")

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.tags: Counter[str] = Counter()
        self.links: list[str] = []
        self.inline_scripts = 0
        self.inline_styles = 0
        self._in_script: bool = False
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        values = dict(attrs)
        for name in self.TEXT_ATTRIBUTES:
            if values.get(name):
                self.texts.append(values[name] or "")
        for name in self.LINK_ATTRIBUTES:
            if values.get(name):
                self.links.append(values[name] or "")
        if "style" in values:
            self.inline_styles += 1
        if tag == "style":
            self.inline_styles += 1
        self._in_script = tag == "script" and not values.get("src")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts += 1
        self.texts.append(data)

    @property
    def text(self) -> str:
        """Everything shown, whitespace made single spaces."""
        return " ".join(" ".join(self.texts).split())


def shown(name: str) -> str:
    """A name as the text of a page has it (whitespace made single spaces)."""
    return " ".join(name.split())


# -- the crawl ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fetched:
    """One answer of the crawl."""

    status: int
    content_type: str
    headers: dict[str, str]
    body: bytes

    @property
    def html(self) -> str:
        """The body as text (HTML pages)."""
        return self.body.decode("utf-8", errors="replace")


@dataclass
class Crawl:
    """Everything fetched, and the store before and after."""

    data: WebData
    fetched: dict[str, Fetched] = field(default_factory=dict)
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def pages(self) -> Iterator[tuple[str, Fetched]]:
        """The HTML pages fetched, with their addresses."""
        for url, got in self.fetched.items():
            if got.content_type == "text/html":
                yield url, got


def dump(path: Path) -> list[str]:
    """Every table of the SQLite store at ``path``, row for row, as SQL text."""
    reading = connect_read_only(path)
    try:
        return list(reading.iterdump())
    finally:
        reading.close()


def shape(url: str) -> str:
    """What an address is an instance of: a page's path is its own, but the pictures
    beside a page are one shape, and so are a page's query strings with the same keys
    (the steps of one replay, the pages of one search)."""
    parts = urlsplit(url)
    path = parts.path
    if path.endswith(".png"):
        path = path.rpartition("/")[0] + "/*.png"
    if not parts.query:
        return path
    return path + "?" + "&".join(sorted(key for key, _ in parse_qsl(parts.query, True)))


def same_site(link: str, here: str) -> str | None:
    """``link`` (from the page at ``here``) as a path with query, if it stays on the site."""
    if link.startswith(("#", "mailto:", "javascript:", "data:")):
        return None
    joined = urlsplit(urljoin(f"http://site{here}", link))
    if joined.netloc != "site" or joined.scheme != "http":
        return None
    return joined.path + (f"?{joined.query}" if joined.query else "")


async def crawl(data: WebData) -> Crawl:
    """Every page of the filled store and every same-site link and picture on them, with
    the store opened for writing (so that a write would land) and dumped before and
    after."""
    result = Crawl(data, before=dump(data.path))
    started = time.perf_counter()
    store = await Store.open(data.path)
    try:
        async with TestClient(TestServer(build_app(store, clock=FakeClock()),
                                         **SERVER_OPTIONS)) as client:
            queue = list(pages(data).values())
            shapes: Counter[str] = Counter()
            while queue and len(result.fetched) < MOST_FETCHES:
                url = queue.pop(0)
                if url in result.fetched or shapes[shape(url)] >= PER_SHAPE:
                    continue
                shapes[shape(url)] += 1
                async with client.get(url, allow_redirects=False) as response:
                    got = Fetched(response.status, response.content_type,
                                  dict(response.headers), await response.read())
                result.fetched[url] = got
                if got.content_type == "text/html":
                    for link in Page(got.html).links:
                        path = same_site(link, url)
                        if path is not None and path not in result.fetched:
                            queue.append(path)
                if "Location" in got.headers:
                    path = same_site(got.headers["Location"], url)
                    if path is not None:
                        queue.append(path)
    finally:
        await store.close()
    result.seconds = time.perf_counter() - started
    result.after = dump(data.path)
    return result


@pytest.fixture(scope="module")
def web_data(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    return filled_copy(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def crawled(web_data: WebData) -> Crawl:
    return run_apart(crawl(web_data))


@pytest.fixture
async def client(web_data: WebData) -> TestClient:
    store = await Store.open(web_data.path)
    async with TestClient(TestServer(build_app(store, clock=FakeClock()),
                                     **SERVER_OPTIONS)) as opened:
        yield opened
    await store.close()


# -- read-only -----------------------------------------------------------------------------
def test_crawling_every_page_and_link_changes_nothing(crawled: Crawl) -> None:
    fetched = crawled.fetched
    assert len(fetched) >= len(pages(crawled.data)), "the crawl never got going"
    assert [url for url, got in fetched.items() if got.status >= 500] == []
    unreached = [url for url in pages(crawled.data).values() if fetched[url].status != 200]
    assert unreached == [], "every kind of page is there"
    pictures = [url for url, got in fetched.items() if got.content_type == "image/png"]
    assert any("/steps/" in url for url in pictures) and any("/cards/" in url for url in pictures)
    assert crawled.before and crawled.after == crawled.before


async def test_nothing_but_reading_is_allowed(client: TestClient, web_data: WebData) -> None:
    before = dump(web_data.path)
    for url in pages(web_data).values():
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            async with client.request(method, url, data=b"x=1") as response:
                assert response.status == 405, (method, url)
                body = await response.text()
                assert not TRACE.search(body)
    assert dump(web_data.path) == before


# -- every response ------------------------------------------------------------------------
def test_every_response_carries_the_content_security_policy(crawled: Crawl) -> None:
    missing = [url for url, got in crawled.fetched.items()
               if got.headers.get("Content-Security-Policy") != CONTENT_SECURITY_POLICY]
    assert missing == []


def test_no_page_has_an_inline_script_or_style(crawled: Crawl) -> None:
    inline = [(url, page.inline_scripts, page.inline_styles)
              for url, got in crawled.pages()
              for page in [Page(got.html)] if page.inline_scripts or page.inline_styles]
    assert inline == []


# -- hostile names -------------------------------------------------------------------------
NAMED = {
    "index": (101, 106),
    "tournament-swiss": tuple(PEOPLE),
    "tournament-double": (101, 102, 103, 104),
    "leaderboard-flank": (101, 102, 103, 104, 105, 106),
    "replay-flank": (101, 102),
    "replay-nails": (103, 104, 105, 106),
    "replay-eclipse": (106, 101),
    "replay-duel": (101,),
    "player": (101,),
}
"""Pages and the hostile people each must name."""


def test_hostile_names_are_shown_exactly_as_typed(crawled: Crawl) -> None:
    where = pages(crawled.data)
    for name, users in NAMED.items():
        got = crawled.fetched[where[name]]
        assert got.status == 200, name
        text = Page(got.html).text
        for user in users:
            assert shown(PEOPLE[user]) in text, (name, PEOPLE[user])
    assert set(HOSTILE_NAMES) <= {PEOPLE[u] for u in NAMED["tournament-swiss"]}
    for name in ("index", "tournament-running"):
        page = Page(crawled.fetched[where[name]].html)
        assert RUNNING_NAME in page.text and page.tags["i"] == 0, name


def test_no_name_becomes_markup_anywhere(crawled: Crawl) -> None:
    for url, got in crawled.pages():
        html = got.html
        assert SCRIPT not in html, url  # the literal tag never reaches a page
        assert "'Bob' <b>" not in html and "&#39;Bob&#39; <b>" not in html, url
        text = Page(html).text
        assert "<b>bold</b>" not in html and "<strong>bold</strong>" not in html, url
        if shown(MARKDOWN)[2:-2] in text:
            assert MARKDOWN in text, url  # Markdown is not rendered either
    swiss = Page(crawled.fetched[pages(crawled.data)["tournament-swiss"]].html).text
    assert TEMPLATE in swiss and shown(QUOTES) in swiss  # never evaluated to 49


def test_nothing_of_another_server_is_linked(crawled: Crawl) -> None:
    data = crawled.data
    elsewhere = (f"/matches/{data.dark_match_id}", f"/tournaments/{data.dark_tournament_id}",
                 data.dark_slug, "Elsewhere cup")
    leaks = [(url, leak) for url, got in crawled.pages() for leak in elsewhere
             if leak in got.html]
    assert leaks == []


# -- bad addresses ------------------------------------------------------------------------
def bad_paths(data: WebData) -> list[str]:
    """Addresses that name nothing: unknown or malformed slugs, ids that are not
    this server's or not there, garbage in every path part."""
    base = f"/s/{data.slug}"
    return [
        "/s/AAAAAAAAAAAAAAAAAAAAAAAA/", "/s/short/", "/s/%3Cscript%3E/", "/s/..%2F..%2F/",
        "/s/" + "A" * 300 + "/", "/s/%00%00%00%00%00%00%00%00/",
        f"/s/{data.dark_slug}/", f"/s/{data.dark_slug}/matches/{data.dark_match_id}",
        f"/s/{data.dark_slug}/cards", f"/s/{data.slug.upper()}/", f"/s/{data.slug}x/",
        f"{base}/tournaments/999999", f"{base}/tournaments/0", f"{base}/tournaments/-1",
        f"{base}/tournaments/abc", f"{base}/tournaments/1e3",
        f"{base}/tournaments/99999999999999999999999999", f"{base}/tournaments/%EF%BC%91",
        f"{base}/matches/{data.dark_match_id}", f"{base}/matches/999999",
        f"{base}/tournaments/{data.dark_tournament_id}",
        f"{base}/tournaments/{data.dark_tournament_id}/version",
        f"{base}/tournaments/999999/version", f"{base}/tournaments/abc/version",
        f"{base}/leaderboard/", f"{base}/players/", f"{base}/players/-1x",
        f"{base}/matches/{data.matches['flank']}/steps/999999.png",
        f"{base}/matches/{data.matches['flank']}/steps/-1.png",
        f"{base}/matches/{data.matches['flank']}/steps/x.png",
        f"{base}/matches/{data.dark_match_id}/steps/0.png",
        f"{base}/leaderboard/chess", f"{base}/leaderboard/%00", f"{base}/leaderboard/FLANK%20",
        f"{base}/leaderboard/" + "x" * 200,
        f"{base}/players/abc", f"{base}/players/99999999999999999999999",
        f"{base}/players/%F0%9F%83%8F",
        f"{base}/cards/No%20Such%20Card", f"{base}/cards/%3Cscript%3E",
        f"{base}/cards/..%2F..%2Fpyproject.toml", f"{base}/cards/" + "%FF" * 50,
        f"{base}/nothing", f"{base}/tournaments/", "/static/../pyproject.toml",
        "/static/%2e%2e/%2e%2e/pyproject.toml", "/static/nothing.css", "/" + "x" * 5_000,
        "/s/", "/s", "/%ff%fe", "/.git/config", "/s/%7B%7B7*7%7D%7D/",
    ]


async def test_unknown_and_garbage_addresses_get_a_plain_page(client: TestClient,
                                                              web_data: WebData) -> None:
    for url in bad_paths(web_data):
        # Sent as written: the client would otherwise resolve "..", and decode.
        async with client.get(URL(url, encoded=True), allow_redirects=False) as response:
            body = await response.text(errors="replace")
            assert response.status in (400, 404), (url, response.status)
            assert response.headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY
            assert len(body) < PLAIN_PAGE_BYTES, url
            assert not TRACE.search(body), (url, TRACE.search(body))
            if response.content_type == "text/html":
                assert Page(body).tags["h1"] == 1, url
            assert "[tool.pytest" not in body and "[core]" not in body, url


async def raw_request(client: TestClient, line: bytes) -> tuple[int, bytes]:
    """``line`` sent as a request's target byte for byte (no client would): the status
    and the body of the answer."""
    reader, writer = await asyncio.open_connection(client.host, client.port)
    try:
        writer.write(b"GET " + line + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


async def test_a_malformed_request_line_gets_a_short_400(client: TestClient,
                                                         web_data: WebData) -> None:
    """Bytes no browser sends (it escapes them) never reach the app: aiohttp's own parser
    answers 400 in plain text, naming the bad byte, with no trace."""
    base = f"/s/{web_data.slug}".encode()
    for line in (base + "/tournaments/１".encode(), base + b"/\x00", b"/s/\xff\xfe/",
                 base + b"/cards?q=\x01", base + b"/ /"):
        status, body = await raw_request(client, line)
        assert status == 400, line
        assert len(body) < 1_000 and not re.search(rb"Traceback|File \"", body), line


async def test_a_query_string_of_100000_characters_gets_a_bounded_answer(
        client: TestClient, web_data: WebData) -> None:
    long = "a" * MAX_QUERY
    for url in (f"/s/{web_data.slug}/cards?q={long}", f"/s/{web_data.slug}/?{long}",
                f"/s/{web_data.slug}/matches/{web_data.matches['duel']}?step={long}",
                f"/s/{web_data.slug}/tournaments/{web_data.swiss_id}?x={'%3C' * 30_000}"):
        started = time.perf_counter()
        async with client.get(url) as response:
            body = await response.read()
        assert response.status in (400, 414), response.status
        assert len(body) < PLAIN_PAGE_BYTES and long.encode()[:2000] not in body
        assert not TRACE.search(body.decode(errors="replace"))
        assert time.perf_counter() - started < 2.0


async def test_odd_query_parameters_are_refused_or_ignored(client: TestClient,
                                                           web_data: WebData) -> None:
    base = f"/s/{web_data.slug}"
    for url in (f"{base}/matches/{web_data.matches['flank']}?step=-5",
                f"{base}/matches/{web_data.matches['flank']}?step=99999999999999999999",
                f"{base}/matches/{web_data.matches['flank']}?step=abc&step=2",
                f"{base}/cards?q=%00", f"{base}/cards?q=%FF%FE", f"{base}/cards?page=-1",
                f"{base}/cards?page=999999999999999999999", f"{base}/cards?q=pow>=abc",
                f"{base}/cards?q=(((((((", f"{base}/cards?q=" + "c%3Ared+" * 100,
                f"{base}/?game=%3Cscript%3E", f"{base}/leaderboard/flank?page=-3"):
        async with client.get(url) as response:
            body = await response.text(errors="replace")
        assert response.status in (200, 400, 404), (url, response.status)
        assert len(body) < BOUNDED_BYTES and not TRACE.search(body), url


async def test_a_search_that_matches_everything_is_bounded(client: TestClient,
                                                           web_data: WebData) -> None:
    base = f"/s/{web_data.slug}/cards"
    sizes = {}
    for query in ("", "?q=", "?q=-zzzzzzzz", "?q=-zzzz+-yyyy+-xxxx", "?q=cmc>=0",
                  "?q=" + "+".join(f"-q{n}" for n in range(60))):
        async with client.get(base + query) as response:
            body = await response.read()
        assert response.status in (200, 400), (query, response.status)
        assert len(body) < BOUNDED_BYTES
        if response.status == 200:
            sizes[query] = Page(body.decode()).tags["img"]
    assert sizes, "some search matching everything was answered"
    assert max(sizes.values()) <= 100, sizes  # a page of results, never all at once
