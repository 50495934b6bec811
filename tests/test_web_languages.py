"""The web companion in the server's language (issue 33): a server that chose Brazilian
Portuguese (``/config language``) has its pages in Portuguese, ``<html lang="pt-BR">``,
numbers and dates written the Brazilian way; a server that chose none stays in English.
In the pseudo-locale every page a visitor can reach from the index shows no English
word (tags, scripts and styles aside; names and notation allowed), its error pages too.
Over the store tests/webstore.py fills, its language set as /config language sets it."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.i18n import pseudo
from bot.web.app import SERVER_OPTIONS, build_app
from rules.registry import games
from storage import Store
from tests.pseudo import english_left
from tests.webstore import GUILD, PEOPLE, RUNNING_NAME, WebData, filled_copy, run_apart

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning:aiohttp")

SHOWN_ATTRIBUTES = ("alt", "aria-label", "title", "placeholder")
"""Attributes a person is shown (or read aloud) as text."""
SEARCH_WORDS = ("drake", "ember", "red", "creature", "trample", "rare", "land", "first",
                "strike", "pow", "tou", "cmc")
"""The card search's notation, typed in English in every language (``c:red``)."""


class Visible(HTMLParser):
    """A page's text as a person meets it: text outside scripts, styles and code (a
    card's cost, a search typed as it is: notation), and the attributes read aloud;
    the links it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.links: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code"):
            self._hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.texts.append(value)
            if name == "href" and value and tag == "a":
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.texts.append(data)


def seen(page: str) -> Visible:
    found = Visible()
    found.feed(page)
    return found


async def speaking_copy(folder: Path, language: str) -> WebData:
    """A filled store whose server speaks ``language``."""
    data = filled_copy(folder)
    store = await Store.open(data.path)
    try:
        await store.settings.update(GUILD, language=language)
    finally:
        await store.close()
    return data


async def client_over(data: WebData) -> AsyncIterator[TestClient]:
    store = await Store.open(data.path, read_only=True)
    try:
        async with TestClient(TestServer(build_app(store, clock=FakeClock()),
                                         **SERVER_OPTIONS)) as opened:
            yield opened
    finally:
        await store.close()


@pytest.fixture(scope="module")
def portuguese(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    return run_apart(speaking_copy(tmp_path_factory.mktemp("pt"), "pt_BR"))


@pytest.fixture
async def client(portuguese: WebData) -> AsyncIterator[TestClient]:
    async for opened in client_over(portuguese):
        yield opened


async def text_of(client: TestClient, address: str, status: int = 200) -> str:
    response = await client.get(address)
    assert response.status == status, address
    return await response.text()


async def test_a_portuguese_server_has_its_pages_in_portuguese(client, portuguese) -> None:
    base = f"/s/{portuguese.slug}"
    index = html.unescape(await text_of(client, f"{base}/"))
    assert '<html lang="pt-BR">' in index
    assert "Os jogos deste servidor" in index and "Partidas terminadas recentemente" in index
    assert "This server's games" not in index and "Tournaments" not in index
    assert re.search(r"\d\d/\d\d/20\d\d \d\d:\d\d UTC", index)  # day/month/year
    board = await text_of(client, f"{base}/leaderboard/flank")
    assert "Classificação de Flank" in board and "Pontuação" in board
    assert re.search(r'<td class="num">-?\d+,\d</td>', board)  # a rating: "12,3"
    tournament = await text_of(client, f"{base}/tournaments/{portuguese.swiss_id}")
    assert "Classificação final" in tournament and "Rodadas anteriores" in tournament
    replay = await text_of(client, f"{base}/matches/{portuguese.matches['flank']}")
    assert "Jogadores e resultado" in replay and "O que a mesa disse" in replay
    cards = await text_of(client, f"{base}/cards?q=c:red")
    assert "Como buscar" in cards and "cartas encontradas" in cards
    missing = await text_of(client, f"{base}/matches/999999", 404)
    assert '<html lang="pt-BR">' in missing and "Nada por aqui" in missing


async def test_a_server_without_a_language_stays_in_english(tmp_path) -> None:
    data = filled_copy(tmp_path)
    async for opened in client_over(data):
        index = html.unescape(await text_of(opened, f"/s/{data.slug}/"))
        assert '<html lang="en">' in index and "This server's games" in index
        missing = await text_of(opened, "/s/nothing-like-a-slug/", 404)
        assert '<html lang="en">' in missing and "Nothing here" in missing


async def test_every_page_in_the_pseudo_locale_shows_no_english(tmp_path) -> None:
    pseudo.enable()
    try:
        data = await speaking_copy(tmp_path, "qps")
        async for opened in client_over(data):
            left = await crawl(opened, data)
    finally:
        pseudo.enable(False)
    assert left == [], "\n".join(left[:40])


async def crawl(client: TestClient, data: WebData) -> list[str]:
    """Every page of the server reachable from its index (and an error page, a search
    that does not read, a results part), each with the English left in it."""
    base = f"/s/{data.slug}"
    names = [*PEOPLE.values(), RUNNING_NAME, "Spring Swiss", "Double trouble"]
    # A long name is clipped where room is short (a bracket's box, a chart's label).
    clipped = [name[:end] for name in names for end in range(3, len(name))]
    allowed = [*names, *clipped, *(info.title for info in games().values()), *SEARCH_WORDS,
               "Croupier Bot", "openskill"]
    queue = [f"{base}/", f"{base}/cards?q=c:red&page=1", f"{base}/cards?q=pow%3E%3Dx",
             f"{base}/cards?q=t:creature&part=results", f"{base}/matches/999999"]
    visited: set[str] = set()
    left: list[str] = []
    while queue:
        address = queue.pop(0).split("#")[0]
        if address in visited or not address.startswith(base):
            continue
        visited.add(address)
        response = await client.get(address)
        if "text/html" not in response.headers.get("Content-Type", ""):
            continue
        page = seen(await response.text())
        left += [f"{address}: {text!r} → {words}" for text in page.texts
                 if (words := english_left(text, allowed))]
        # Every page of a kind is made alike: one card page and a few steps suffice.
        queue += [link for link in page.links if _worth(link, visited)]
    assert len(visited) > 20, visited
    return left


def _worth(link: str, visited: set[str]) -> bool:
    if re.search(r"/cards/[a-z0-9-]+$", link):
        return not any(re.search(r"/cards/[a-z0-9-]+$", seen_) for seen_ in visited)
    step = re.search(r"\?step=(\d+)$", link)
    return step is None or int(step.group(1)) <= 2
