"""The web card gallery (issue 32, page 4): every card with its picture and supply, the
search (the same results as :mod:`rules.duel.query`), bad input answered with a plain
400/404, a card's own page, and its picture cached. One small store per module, filled
through the real services: a server with its web on where packs were opened under tiny
print runs (so a run is used up), and a server with its web off whose packs must not
count."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.config import Settings
from bot.discord_side.client import CroupierBot
from bot.duel.collections import CollectionError, CollectionService
from bot.settings.service import Manager, ServerConfig
from bot.web.app import SERVER_OPTIONS, build_app
from bot.web.pages.duel import PER_PAGE
from rules.duel.card_ids import card_id
from rules.duel.cards import card_set
from rules.duel.packs import RUN_SIZES
from rules.duel.query import MAX_LENGTH, search
from storage import Store
from tests.browser import chromium, missing, served, tab
from tests.e2e import make_bot

GUILD, DARK = 5151, 5252
COLLECTOR, OTHER = 71, 72
MANAGER = Manager(7, "Mod", manages_server=True)
TINY_RUNS = {"rare": 1, "uncommon": 1, "common": 2}
"""Print runs small enough that three packs use some up."""


@dataclass(frozen=True)
class Gallery:
    path: Path
    slug: str
    dark_slug: str
    copies: Counter[str]
    """Copies of each card on :data:`GUILD`, from the starter and the packs."""
    limited: Counter[str]
    """Of those, the limited (serialled) ones: what the packs printed."""


async def _fill(path: Path) -> Gallery:
    store = await Store.open(path)
    try:
        config = ServerConfig(store)
        slug = (await config.set_web(MANAGER, GUILD, True)).slug
        dark_slug = (await config.set_web(MANAGER, DARK, True)).slug
        await config.set_web(MANAGER, DARK, False)
        clock = FakeClock()
        seeds = random.Random(11)
        service = CollectionService(store, clock, run_sizes=TINY_RUNS,
                                    rng_factory=lambda: random.Random(seeds.random()))
        starter = await service.claim_starter(GUILD, COLLECTOR, "ember-and-grove")
        copies = Counter(c.card for c in starter.copies)
        limited: Counter[str] = Counter()
        for user in (COLLECTOR, OTHER, COLLECTOR):
            pack = await service.give_pack(GUILD, 7, user)
            copies.update(c.card for c in pack.copies)
            limited.update(c.card for c in pack.copies if c.serial is not None)
        for _ in range(2):  # the dark server's packs count there alone
            await service.give_pack(DARK, 7, OTHER)
        return Gallery(path, slug, dark_slug, copies, limited)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def gallery_data(tmp_path_factory: pytest.TempPathFactory) -> Gallery:
    """The module's store, filled once (in a thread with its own loop)."""
    path = tmp_path_factory.mktemp("gallery") / "gallery.sqlite3"
    made: list[Gallery | BaseException] = []

    def fill() -> None:
        try:
            made.append(asyncio.run(_fill(path)))
        except BaseException as exc:  # raised again here, in the test's thread
            made.append(exc)

    worker = threading.Thread(target=fill)
    worker.start()
    worker.join()
    if isinstance(made[0], BaseException):
        raise made[0]
    return made[0]


@pytest.fixture
async def client(gallery_data: Gallery) -> AsyncIterator[TestClient]:
    store = await Store.open(gallery_data.path, read_only=True)
    server = TestServer(build_app(store, clock=FakeClock()), **SERVER_OPTIONS)
    async with TestClient(server) as found:
        yield found
    await store.close()


class Page(HTMLParser):
    """What the tests read of a page: cards listed, pictures, headings, texts by id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.cards: list[str] = []
        self.images: list[dict[str, str | None]] = []
        self.headings: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.styled = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "style" in found:
            self.styled += 1
        if tag == "li" and found.get("data-card"):
            self.cards.append(str(found["data-card"]))
        elif tag == "img":
            self.images.append(found)
        elif tag == "script":
            self.scripts.append(found)
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append(tag)


def text_of(html: str) -> str:
    """The page's words, tags dropped and spaces squeezed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def ids(query: str) -> list[str]:
    return [card_id(c.name) for c in search(query)]


# -- the gallery ------------------------------------------------------------------------
async def test_every_card_is_in_the_gallery_once_with_its_picture(client: TestClient,
                                                                  gallery_data: Gallery):
    seen: list[str] = []
    pages = -(-len(card_set()) // PER_PAGE)
    for number in range(1, pages + 1):
        response = await client.get(f"/s/{gallery_data.slug}/cards?page={number}")
        assert response.status == 200
        html = await response.text()
        page = Page(html)
        seen += page.cards
        assert f"{len(card_set())} cards match; page {number} of {pages}." in text_of(html)
        # Each card's picture is beside it, described by its name, type line and text.
        assert len(page.images) == len(page.cards)
        for image, card in zip(page.images, page.cards, strict=True):
            assert image["src"] == f"/s/{gallery_data.slug}/cards/{card}.png"
            assert image["alt"] and image["width"] and image["height"]
        # Valid, accessible, and nothing inline for the Content-Security-Policy to refuse.
        assert html.startswith("<!DOCTYPE html>") and '<html lang="en">' in html
        assert page.headings.count("h1") == 1 and page.headings[:2] == ["h1", "h2"]
        assert page.styled == 0 and all(s.get("src") for s in page.scripts)
    assert seen == ids("") and len(set(seen)) == len(card_set())
    missing = await client.get(f"/s/{gallery_data.slug}/cards?page={pages + 1}")
    assert missing.status == 404


async def test_a_picture_is_described_by_its_words(client: TestClient, gallery_data: Gallery):
    html = await (await client.get(f"/s/{gallery_data.slug}/cards?q=kindlewhip")).text()
    page = Page(html)
    assert page.cards == ["kindlewhip"]
    assert page.images[0]["alt"] == "Kindlewhip. Instant. Deal 2 damage to any target."


@pytest.mark.parametrize("query", ["c:red t:creature pow>=3", "-t:land o:trample",
                                   "r>=uncommon cmc<=2", '"of the"', "c:c -t:land",
                                   "drake", "zzz"])
async def test_the_search_finds_what_the_query_language_finds(client: TestClient,
                                                              gallery_data: Gallery,
                                                              query: str):
    response = await client.get(f"/s/{gallery_data.slug}/cards", params={"q": query})
    assert response.status == 200
    html = await response.text()
    assert Page(html).cards == ids(query)[:PER_PAGE]
    words = text_of(html)
    assert (f"{len(ids(query))} card" in words) if ids(query) else "No card matches." in words


async def test_a_search_that_does_not_read_says_why_with_400(client: TestClient,
                                                              gallery_data: Gallery):
    cases = {
        "pow>=lots": "“pow” compares with a whole number of up to three digits, not “lots”.",
        "x:1": "There is no field “x”.",
        "o<3": "“o” cannot be used with “<”",
        "c:purple": "“purple” is not a colour",
        '"unclosed': "A quote is opened but never closed.",
        "-": "A minus needs a term right after it",
        "a " * 13: "at most 12 terms",
        "y" * (MAX_LENGTH + 1): f"at most {MAX_LENGTH} characters",
    }
    for query, said in cases.items():
        response = await client.get(f"/s/{gallery_data.slug}/cards", params={"q": query})
        assert response.status == 400, query
        html = await response.text()
        assert said in text_of(html), (query, text_of(html))
        assert Page(html).cards == [] and "Traceback" not in html
        # The search box keeps what was typed, to be mended.
        assert 'id="q"' in html and 'role="alert"' in html


async def test_the_results_alone_are_what_the_page_shows(client: TestClient,
                                                         gallery_data: Gallery):
    url = f"/s/{gallery_data.slug}/cards"
    for query in ("c:red t:creature", "pow>=", "zzz", ""):
        whole = await client.get(url, params={"q": query})
        part = await client.get(url, params={"q": query, "part": "results"})
        # As a person types, a term not finished yet is no failed request: a 200 that
        # says what the whole page says with its 400.
        assert part.status == 200, query
        html = await part.text()
        assert "<html" not in html and 'id="result-count"' in html
        assert Page(html).cards == Page(await whole.text()).cards
        said = text_of(html)
        assert said in text_of(await whole.text())
    unfinished = await client.get(url, params={"q": "pow>=", "part": "results"})
    assert "“pow>=” needs a value right after it, with no space." in text_of(
        await unfinished.text())
    assert (await client.get(url, params={"q": "x", "part": "all"})).status == 400


async def test_what_was_typed_stays_text(client: TestClient, gallery_data: Gallery):
    hostile = '"<script>alert(1)</script>" {{7*7}}'
    response = await client.get(f"/s/{gallery_data.slug}/cards", params={"q": hostile})
    html = await response.text()
    assert response.status == 200 and "<script>alert" not in html and "49" not in text_of(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "{{7*7}}" in html


async def test_bad_addresses_and_parameters_are_plain_errors(client: TestClient,
                                                             gallery_data: Gallery):
    slug = gallery_data.slug
    for path, status in [
        (f"/s/{slug}/cards?page=0", 400), (f"/s/{slug}/cards?page=abc", 400),
        (f"/s/{slug}/cards?page=99999", 400), (f"/s/{slug}/cards?page=%D9%A3", 400),
        (f"/s/{slug}/cards?q=a&q=b", 400), (f"/s/{slug}/cards?sort=name", 400),
        (f"/s/{slug}/cards?q=" + "x" * 100_000, 400),
        (f"/s/{gallery_data.dark_slug}/cards", 404), ("/s/not-a-slug-at-all/cards", 404),
        ("/s/<script>/cards", 404), (f"/s/{slug}/cards/no-such-card", 404),
        (f"/s/{slug}/cards/Kindlewhip", 404), (f"/s/{slug}/cards/kindlewhip/", 404),
        (f"/s/{slug}/cards/{'a' * 70}", 404), (f"/s/{slug}/cards/kindlewhip?x=1", 400),
        (f"/s/{slug}/cards/no-such-card.png", 404), (f"/s/{slug}/cards/..%2Fapp.png", 404),
        (f"/s/{gallery_data.dark_slug}/cards/kindlewhip.png", 404),
        (f"/s/{gallery_data.dark_slug}/cards/kindlewhip", 404),
    ]:
        response = await client.get(path)
        assert response.status == status, path
        assert "Traceback" not in await response.text()
    posted = await client.post(f"/s/{slug}/cards", data={"q": "c:red"})
    assert posted.status == 405


# -- the supply -------------------------------------------------------------------------
async def test_each_card_says_what_packs_printed_here_and_what_is_left(
        client: TestClient, gallery_data: Gallery):
    slug = gallery_data.slug
    copies, limited = gallery_data.copies, gallery_data.limited
    used_up = next(name for name, n in limited.items()  # and then some unlimited
                   if n == TINY_RUNS[card_set()[name].rarity] and copies[name] > n)
    once = next(name for name, n in limited.items()
                if n < TINY_RUNS[card_set()[name].rarity])
    untouched = next(c.name for c in card_set().values()
                     if c.basic is None and c.name not in limited)
    size = TINY_RUNS[card_set()[once].rarity]
    expected = {
        used_up: (f"Printed here: all {TINY_RUNS[card_set()[used_up].rarity]} of its "
                  "limited run; packs now give unlimited copies. "
                  f"{copies[used_up]} copies on this server."),
        once: (f"Printed here: {limited[once]} of a limited run of {size}; "
               f"{size - limited[once]} left in packs. {copies[once]} cop"),
        # A run not begun is whole at the default size (the web's service has no tiny runs).
        untouched: ("Printed here: none yet; a limited run of "
                    f"{RUN_SIZES[card_set()[untouched].rarity]} waits in packs. "
                    f"{copies[untouched]} cop"),
        "Ashpeak": ("Not in packs: a basic land is free and unlimited. "
                    f"{copies['Ashpeak']} copies on this server."),
    }
    for name, said in expected.items():
        page = await client.get(f"/s/{slug}/cards/{card_id(name)}")
        assert page.status == 200
        html = await page.text()
        assert said in text_of(html), (name, text_of(html))
        parsed = Page(html)
        assert parsed.headings.count("h1") == 1 and parsed.images[0]["alt"]
        assert parsed.images[0]["src"] == f"/s/{slug}/cards/{card_id(name)}.png"
        listed = await client.get(f"/s/{slug}/cards", params={"q": f'"{name.casefold()}"'})
        assert said in text_of(await listed.text())


async def test_the_dark_servers_cards_do_not_count_here(gallery_data: Gallery):
    store = await Store.open(gallery_data.path, read_only=True)
    try:
        service = CollectionService(store, FakeClock())
        supply = await service.supply(GUILD)
        assert {n: s.in_server for n, s in supply.items() if s.in_server} == \
            dict(gallery_data.copies)
        assert {n: s.printed for n, s in supply.items() if s.printed} == \
            dict(gallery_data.limited)
        some = await service.supply(GUILD, ["Ashpeak", *gallery_data.limited])
        assert all(some[n] == supply[n] for n in some) and len(some) == \
            1 + len(gallery_data.limited)
        dark = await service.supply(DARK)
        assert sum(s.in_server for s in dark.values()) == 2 * 15
        with pytest.raises(CollectionError, match="Did you mean Kindlewhip"):
            await service.supply(GUILD, ["Kindlewip"])
        assert list(await service.supply(GUILD, ["ashpeak", "Ashpeak"])) == ["Ashpeak"]
    finally:
        await store.close()


# -- pictures ---------------------------------------------------------------------------
async def test_a_picture_is_a_png_a_browser_keeps(client: TestClient, gallery_data: Gallery):
    path = f"/s/{gallery_data.slug}/cards/wayfarers-cairn.png"
    first = await client.get(path)
    assert first.status == 200 and first.content_type == "image/png"
    body = await first.read()
    assert body.startswith(b"\x89PNG") and "max-age" in first.headers["Cache-Control"]
    tag = first.headers["ETag"]
    again = await client.get(path, headers={"If-None-Match": f'"other", {tag}'})
    assert again.status == 304 and await again.read() == b""
    changed = await client.get(path, headers={"If-None-Match": '"other"'})
    assert changed.status == 200 and await changed.read() == body
    head = await client.head(path)
    assert head.status == 200


# -- /card's link in Discord ------------------------------------------------------------
async def test_card_links_to_its_page_where_the_server_has_its_web_on(fake_discord, tmp_path):
    web_url = "https://cards.example/croupier"
    bot = CroupierBot(Settings(_env_file=None, database=tmp_path / "card.sqlite3",
                               web_url=web_url))
    lit = fake_discord.add_guild("Lit")
    dark = fake_discord.add_guild("Dark")
    ada = fake_discord.add_user("Ada")
    async with fake_discord.running(bot):
        channel, dark_channel = lit.add_text_channel("cards"), dark.add_text_channel("cards")
        before = await fake_discord.slash(ada, channel, "card", name="Wayfarer's Cairn")
        assert before.message.buttons == []  # the server's web is not on yet
        site = await ServerConfig(bot.store).set_web(MANAGER, lit.id, True)
        shown = await fake_discord.slash(ada, channel, "card", name="wayfarer's cairn")
        [button] = shown.message.buttons
        assert button.label == "Open on the web"
        assert button.url == f"{web_url}/s/{site.slug}/cards/wayfarers-cairn"
        public = await fake_discord.slash(ada, channel, "card", name="Kindlewhip", public=True)
        assert not public.ephemeral
        assert public.message.buttons[0].url.endswith(f"/s/{site.slug}/cards/kindlewhip")
        # Another server, its web off, gets no link; nor does this one once it turns it off.
        elsewhere = await fake_discord.slash(ada, dark_channel, "card", name="Kindlewhip")
        assert elsewhere.message.buttons == [] and "Kindlewhip" in elsewhere.text
        await ServerConfig(bot.store).set_web(MANAGER, lit.id, False)
        off = await fake_discord.slash(ada, channel, "card", name="Kindlewhip")
        assert off.message.buttons == []


async def test_card_has_no_link_without_the_public_address(fake_discord, tmp_path):
    bot = make_bot(tmp_path / "card.sqlite3")  # no CROUPIER_WEB_URL
    guild = fake_discord.add_guild("Lit")
    ada = fake_discord.add_user("Ada")
    async with fake_discord.running(bot):
        await ServerConfig(bot.store).set_web(MANAGER, guild.id, True)
        shown = await fake_discord.slash(ada, guild.add_text_channel("cards"), "card",
                                         name="Kindlewhip")
        assert shown.message.buttons == [] and "Kindlewhip" in shown.text


# -- in a browser -----------------------------------------------------------------------
@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_typing_shows_the_servers_results_and_why_a_term_is_unfinished(
        gallery_data: Gallery):
    """cards.js in Chromium: a pause on an unfinished term says what it lacks (and the
    browser logs no failed request), finishing it shows the server's own results."""
    from playwright.sync_api import expect

    with served(gallery_data.path) as site, chromium() as browser, \
            tab(browser, "phone") as opened:
        opened.go(f"{site.base_url}/s/{gallery_data.slug}/cards")
        page, field = opened.page, opened.page.locator("#q")
        field.press_sequentially("c:red pow>=", delay=10)
        expect(page.locator("#query-error")).to_have_text(
            "“pow>=” needs a value right after it, with no space.", timeout=5_000)
        expect(page.locator("#result-count")).to_have_text(
            "No results: the search could not be read.")
        field.press_sequentially("3", delay=10)
        expect(page.locator("#result-count")).to_have_text(
            f"{len(ids('c:red pow>=3'))} cards match.", timeout=5_000)
        shown = page.locator("#card-list li").evaluate_all(
            "items => items.map(item => item.dataset.card)")
        assert shown == ids("c:red pow>=3") and page.locator("#query-error").count() == 0
        assert page.url.endswith("/cards?q=c%3Ared+pow%3E%3D3")
        assert page.title().startswith("“c:red pow>=3” · Arcane Duel cards")
        assert opened.errors == []
