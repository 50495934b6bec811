"""The web companion's own pages (issue 32): a server's index, a game's leaderboard and a
player's page, over the store tests/webstore.py fills through the real services (opened
read-only, as ``croupier web`` opens it). Names show exactly as typed and escaped; a
player who hid their history shows as hidden (their name stays on the leaderboard);
another server's matches never show; bad parts are plain 400/404 pages."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape

from bot.clock import FakeClock
from bot.settings.service import Manager, ServerConfig
from bot.stats.service import LEADERBOARD_PAGE, StatsService
from bot.stats.terms import NOBODY_RATED
from bot.web.app import SERVER_OPTIONS, build_app
from storage import Store
from tests.webstore import GAMES, HOSTILE_NAMES, PEOPLE, SCRIPT, WebData, filled_copy

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning:aiohttp")


@pytest.fixture(scope="module")
def web_data(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    return filled_copy(tmp_path_factory.mktemp("pages"))


@pytest.fixture
async def store(web_data: WebData) -> AsyncIterator[Store]:
    opened = await Store.open(web_data.path, read_only=True)
    yield opened
    await opened.close()


@pytest.fixture
async def client(store: Store) -> AsyncIterator[TestClient]:
    async with TestClient(TestServer(build_app(store, clock=FakeClock()),
                                     **SERVER_OPTIONS)) as opened:
        yield opened


def escape_(text: str) -> str:
    """``text`` as the templates write it."""
    return str(escape(text))


class Outline(HTMLParser):
    """What a page's structure must hold: its headings, links, tables' headers."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[int] = []
        self.links: list[str] = []
        self.th_without_scope = 0
        self.inline = 0
        self.lang = ""
        self.viewport = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "a" and found.get("href"):
            self.links.append(found["href"] or "")
        if tag == "th" and "scope" not in found:
            self.th_without_scope += 1
        if "style" in found or tag == "style" or (tag == "script" and "src" not in found):
            self.inline += 1
        if tag == "html":
            self.lang = found.get("lang") or ""
        if tag == "meta" and found.get("name") == "viewport":
            self.viewport = "width=device-width" in (found.get("content") or "")


async def read(client: TestClient, url: str, status: int = 200) -> tuple[str, Outline]:
    response = await client.get(url)
    body = await response.text()
    assert response.status == status, (url, body[:500])
    outline = Outline()
    outline.feed(body)
    assert outline.lang == "en" and outline.viewport and outline.inline == 0
    assert outline.headings.count(1) == 1 and outline.headings[0] == 1
    # Headings in order: none skips a level going down.
    assert all(b <= a + 1 for a, b in zip(outline.headings, outline.headings[1:],
                                             strict=False)), outline.headings
    assert outline.th_without_scope == 0
    return body, outline


async def test_index_lists_the_servers_games(client: TestClient, web_data: WebData) -> None:
    body, outline = await read(client, f"/s/{web_data.slug}/")
    base = f"/s/{web_data.slug}"
    for tournament in (web_data.swiss_id, web_data.double_id, web_data.running_id):
        assert f"{base}/tournaments/{tournament}" in outline.links
    for game in GAMES:
        assert f"{base}/leaderboard/{game}" in outline.links
        assert f"{base}/matches/{web_data.matches[game]}" in outline.links
    assert f"{base}/matches/{web_data.dark_match_id}" not in outline.links
    assert f"{base}/cards" in outline.links
    assert escape_(SCRIPT) in body and SCRIPT not in body
    # Without the closing slash: sent to the index.
    response = await client.get(base, allow_redirects=False)
    assert response.status == 302 and response.headers["Location"] == f"{base}/"


async def test_the_leaderboard_ranks_as_the_store_does(
        client: TestClient, web_data: WebData, store: Store) -> None:
    rows = await store.stats.leaderboard(web_data.guild_id, "flank", limit=LEADERBOARD_PAGE)
    assert len(rows) >= 4
    body, outline = await read(client, f"/s/{web_data.slug}/leaderboard/flank")
    players = [link for link in outline.links if "/players/" in link]
    ranked = [f"/s/{web_data.slug}/players/{row.user_id}" for row in rows]
    assert players[:len(rows)] == ranked
    for row in rows:
        assert escape_(row.name) in body
    assert body.count('role="img"') == 2  # the ratings, and the best rated over time
    assert f"{rows[0].ordinal:.1f}" in body
    # The key of the lines over time: the best rated first, in the board's order.
    assert players[len(rows):] == ranked[:len(players) - len(rows)]
    assert 2 <= len(players) - len(rows) <= 5


async def test_the_chart_over_time_leaves_hidden_histories_out(
        web_data: WebData, store: Store) -> None:
    stats = StatsService(store)
    shown = await stats.rating_histories(web_data.guild_id, "flank",
                                         [web_data.hidden_id, 101])
    assert set(shown) == {101} and len(shown[101]) >= 2
    history = await store.stats.player_results(web_data.guild_id, 101, "flank")
    assert shown[101] == tuple(r.ordinal_after for r in history if r.ordinal_after is not None)


async def test_the_leaderboard_refuses_bad_parts(client: TestClient, web_data: WebData) -> None:
    base = f"/s/{web_data.slug}/leaderboard"
    await read(client, f"{base}/chess", 404)
    await read(client, f"{base}/FLANK", 404)
    for query in ("page=x", "page=0", "page=-1", "page=1&page=2", "page=" + "9" * 12,
                  "page=%EF%BC%91"):  # a fullwidth 1 is not a number here
        await read(client, f"{base}/flank?{query}", 400)
    # A page past the end shows the last one.
    _, last = await read(client, f"{base}/flank?page=999")
    _, first = await read(client, f"{base}/flank")
    assert last.links == first.links and any("/players/" in link for link in last.links)


async def test_a_server_with_nothing_yet_says_so(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "empty.sqlite3")
    try:
        slug = (await ServerConfig(store).set_web(Manager(1, "mod", manages_server=True), 5,
                                                  True)).slug
        async with TestClient(TestServer(build_app(store))) as empty:
            body, outline = await read(empty, f"/s/{slug}/")
            assert "No tournaments yet" in body and "No finished matches yet" in body
            assert not [link for link in outline.links if "/matches/" in link]
            body, _ = await read(empty, f"/s/{slug}/leaderboard/flank")
            assert escape_(NOBODY_RATED.english()) in body and "<svg" not in body
    finally:
        await store.close()


async def test_a_players_page_links_each_match_to_its_replay(
        client: TestClient, web_data: WebData, store: Store) -> None:
    user = next(u for u, name in PEOPLE.items() if name == SCRIPT)
    body, outline = await read(client, f"/s/{web_data.slug}/players/{user}")
    assert f"<h1>{escape_(SCRIPT)}</h1>" in body
    history = await store.stats.player_results(web_data.guild_id, user, limit=25,
                                               newest_first=True)
    assert history
    replays = [link for link in outline.links if "/matches/" in link]
    assert replays == [f"/s/{web_data.slug}/matches/{r.match_id}" for r in history]
    assert f"/s/{web_data.slug}/matches/{web_data.dark_match_id}" not in outline.links
    assert "<svg" in body and f"/s/{web_data.slug}/tournaments/{web_data.swiss_id}" in body
    for name in HOSTILE_NAMES:
        assert name not in body or escape_(name) == name


async def test_a_hidden_history_shows_as_hidden(client: TestClient, web_data: WebData) -> None:
    body, outline = await read(client, f"/s/{web_data.slug}/players/{web_data.hidden_id}")
    assert "hidden their history" in body
    assert escape_(PEOPLE[web_data.hidden_id]) in body
    assert not [link for link in outline.links if "/matches/" in link or "/tournaments/" in link]
    assert "<svg" not in body
    # Their name stays on the leaderboard, as on Discord.
    _, links = await read(client, f"/s/{web_data.slug}/leaderboard/flank")
    assert f"/s/{web_data.slug}/players/{web_data.hidden_id}" in links.links


async def test_a_player_page_refuses_strangers_and_bad_ids(
        client: TestClient, web_data: WebData) -> None:
    base = f"/s/{web_data.slug}/players"
    for part in ("999", "0", "abc", "-1", "1e3", "9" * 30, "%EF%BC%91"):
        await read(client, f"{base}/{part}", 404)


async def test_pages_of_a_server_with_its_web_off_show_nothing(
        client: TestClient, web_data: WebData) -> None:
    for tail in ("", "leaderboard/flank", "players/107"):
        body, _ = await read(client, f"/s/{web_data.dark_slug}/{tail}", 404)
        assert "Lin" not in body
