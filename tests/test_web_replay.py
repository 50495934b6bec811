"""The replay page (issue 32): a finished match of a server stepped through as its
channel saw it, over the store of tests/webstore.py (a match of each game played to its
end through the match service, people's moves the easy computer's).

Each step is a resolved step of the game: its public table picture (the Discord table's
own, drawn from the channel's observation), the table's text for its alt, and the
narration the table showed. Secrecy as in Discord: no hand, no library, no private event
and no secret choice shows before the channel saw it, checked on every step's page
against this test's own replay of the log. Navigation works without JavaScript (links, a
form); bad addresses are plain 400/404 pages; replays are cached, bounded and replayed
once however many ask at once.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import markupsafe
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import FakeClock
from bot.games import presenter_for
from bot.i18n import narrate, say
from bot.matches.live import NARRATED
from bot.matches.results import reason_said
from bot.web.app import SERVER_OPTIONS, build_app
from bot.web.replays.cache import Replays
from rules.core import GameState, Outcome
from rules.registry import get_game
from storage import Store
from storage.models import ChoiceRow, MatchRow
from tests.webstore import GAMES, SCRIPT, WebData, filled_copy, run_apart


@dataclass(frozen=True)
class Seen:
    """One step of this test's own replay of a match's log."""

    number: int
    public: Any
    """The channel's observation."""
    said: tuple[str, ...]
    """The step's public events, names filled in."""
    private: tuple[str, ...]
    """The step's events for some seats only."""
    held: frozenset[str]
    """What some seat holds that the channel may not see (see :data:`HELD`)."""
    open_book: bool
    """Whether every seat's view reads just as the channel's (nothing hidden)."""


def eclipse_held(state: Any) -> set[str]:
    # Every symbol card in a hand (a secret choice of a card is one of them until it is
    # revealed); followers all read "F", which says nothing.
    return {card.code for seat in range(state.seats) for card in state.observe(seat).hand or ()
            if not card.follower}


def nails_held(state: Any) -> set[str]:
    hands = [state.observe(seat).hand or () for seat in range(state.seats)]
    return {f"tile {tile.number}" for hand in hands for tile in hand}


def duel_held(state: Any) -> set[str]:
    hands = {name for seat in range(state.seats) for name in state.observe(seat).hand}
    libraries = {state.cards[card] for player in state.players for card in player.library}
    return hands | libraries


HELD: dict[str, Callable[[Any], set[str]]] = {
    "eclipse": eclipse_held, "nails": nails_held, "duel": duel_held,
    "flank": lambda state: set(),  # a game of perfect information (checked below)
}
"""Each game's hidden things at a step, in the words its texts name them by."""


def replayed(row: MatchRow, log: list[ChoiceRow]) -> tuple[list[Seen], Outcome]:
    """The steps of ``row`` as this test sees them, from the rules alone, and its outcome."""
    info = get_game(row.game)
    names = [seat.name for seat in row.seats]
    state = info.new(row.options, len(row.seats), row.seed, [s.setup for s in row.seats])
    held = HELD[row.game]

    def seen(said: tuple[str, ...], private: tuple[str, ...]) -> Seen:
        public = state.observe(None)
        words = say(info.text(public, names), "en", names)
        return Seen(state.step, public, said, private, frozenset(held(state)),
                    all(say(info.text(state.observe(seat), names), "en", names) == words
                        for seat in range(state.seats)))

    steps = [seen((f"{info.title} begins.",), ())]
    said: list[str] = []
    private: list[str] = []
    for choice in log:
        for event in state.apply(choice.seat, choice.choice):
            (said if event.public else private).append(narrate(event, names, "en"))
        if state.step > steps[-1].number:
            steps.append(seen(tuple(said), tuple(private)))
            said, private = [], []
    outcome = state.outcome()
    assert outcome is not None
    return steps, outcome


def named(tokens: set[str] | frozenset[str], text: str) -> set[str]:
    """The ``tokens`` that ``text`` (plain text) names as whole words; a tile
    (``tile 12``) also by its notation (``12@…``)."""
    if not tokens:
        return set()
    ways = {}
    for token in tokens:
        ways[token] = token
        if token.startswith("tile "):
            ways[token.removeprefix("tile ") + "@"] = token
    pattern = "|".join(re.escape(way) for way in sorted(ways, key=len, reverse=True))
    return {ways[found] for found in re.findall(rf"(?<![\w@/-])({pattern})(?!\w)", text)}


@dataclass
class Match:
    """A finished match of the store and this test's replay of it."""

    game: str
    id: int
    row: MatchRow
    steps: list[Seen]
    outcome: Outcome

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.row.seats]


@pytest.fixture(scope="module")
def web_data(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    return filled_copy(tmp_path_factory.mktemp("replays"))


@pytest.fixture(scope="module")
def matches(web_data: WebData) -> dict[str, Match]:
    async def read() -> dict[str, Match]:
        store = await Store.open(web_data.path, read_only=True)
        try:
            found = {}
            for game, match_id in web_data.matches.items():
                row = await store.matches.get(match_id)
                assert row is not None
                found[game] = Match(game, match_id, row,
                                    *replayed(row, await store.matches.choices(match_id)))
            return found
        finally:
            await store.close()

    return run_apart(read())


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


def address(data: WebData, match_id: int, step: int | None = None) -> str:
    query = "" if step is None else f"?step={step}"
    return f"/s/{data.slug}/matches/{match_id}{query}"


async def page_of(client: TestClient, url: str) -> str:
    response = await client.get(url)
    assert response.status == 200, url
    assert response.content_type == "text/html"
    return await response.text()


def heading(page: str) -> str:
    found = re.findall(r"<h1[^>]*>(.*?)</h1>", page, re.DOTALL)
    assert len(found) == 1
    return html.unescape(found[0])


def alt_of(page: str) -> str:
    found = re.findall(r'<img src="[^"]*/steps/\d+\.png" alt="([^"]*)"', page)
    assert len(found) == 1
    return html.unescape(found[0])


def narration_of(page: str) -> list[tuple[str, bool]]:
    listed = re.search(r'<ol class="replay-narration">(.*?)</ol>', page, re.DOTALL)
    assert listed is not None
    lines = re.findall(r"<li( class=\"now\")?>(.*?)</li>", listed.group(1), re.DOTALL)
    return [(html.unescape(re.sub(r"<span[^>]*>.*?</span>", "", text)), bool(now))
            for now, text in lines]


def links_of(page: str) -> dict[str, str]:
    """The navigation's links by their ``rel`` (first, prev, next, last)."""
    return {rel: html.unescape(href)
            for href, rel in re.findall(r'<a href="([^"]*)" rel="(\w+)"', page)}


def table_said(match: Match, number: int) -> list[tuple[str, bool]]:
    """What the Discord table narrated at step ``number``: its last lines, oldest first."""
    lines = [(line, step.number == number) for step in match.steps[:number + 1]
             for line in step.said]
    return lines[-NARRATED:]


# -- what each step shows --------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
async def test_each_step_shows_the_channel_s_table_picture_words_and_narration(
        game: str, client: TestClient, web_data: WebData, matches: dict[str, Match]) -> None:
    match = matches[game]
    last = match.steps[-1].number
    info = get_game(game)
    for number in sorted({0, 1, last // 2, last - 1, last}):
        page = await page_of(client, address(web_data, match.id, number))
        assert heading(page) == f"{info.title} match #{match.id}: step {number} of {last}"
        seen = match.steps[number]
        assert alt_of(page) == say(info.text(seen.public, match.names), "en", match.names)
        assert narration_of(page) == table_said(match, number)
        picture = await client.get(f"/s/{web_data.slug}/matches/{match.id}/steps/{number}.png")
        assert picture.status == 200 and picture.content_type == "image/png"
        # The very picture the Discord table showed at this step.
        assert await picture.read() == presenter_for(game).table_png(seen.public, match.names)
    assert narration_of(await page_of(client, address(web_data, match.id)))[0] == (
        f"{info.title} begins.", True)
    # ``page`` is the last step's (the steps were asked in order).
    verdict = re.search(r'<p class="replay-verdict"><strong>(.*?)</strong> \((.*?)\)</p>', page)
    assert verdict is not None, "the last step says who won"
    assert html.unescape(verdict.group(2)) == reason_said(match.outcome.reason, match.names)


async def test_names_show_exactly_as_typed(client: TestClient, web_data: WebData,
                                           matches: dict[str, Match]) -> None:
    match = matches["flank"]
    assert SCRIPT in match.names
    page = await page_of(client, address(web_data, match.id, match.steps[-1].number))
    assert SCRIPT not in page and html.escape(SCRIPT) in page
    assert "<script" not in page.replace('<script src="/static/replay.js" defer></script>', "")


async def test_a_tournament_game_links_to_its_tournament_and_people_to_their_pages(
        client: TestClient, store: Store, web_data: WebData) -> None:
    match_id = web_data.tournament_match_id
    link = await store.tournaments.game(match_id)
    assert link is not None and link.tournament_id == web_data.swiss_id
    page = await page_of(client, address(web_data, match_id))  # a game ended by a forfeit
    assert (f'of <a href="/s/{web_data.slug}/tournaments/{web_data.swiss_id}">Spring Swiss</a>'
            in page)
    assert f"Round {link.round}, table {link.table} of" in page
    row = await store.matches.get(match_id)
    for seat in row.seats:  # the random seeding may seat anyone here, the hostile names too
        linked = (f'<a href="/s/{web_data.slug}/players/{seat.user_id}">'
                  f"{markupsafe.escape(seat.name)}</a>")
        assert (linked not in page) if seat.is_bot else (linked in page), seat
    lone = await page_of(client, address(web_data, web_data.matches["duel"]))
    assert "/tournaments/" not in lone


# -- secrecy -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
async def test_no_step_shows_a_hand_a_library_a_private_event_or_a_secret_choice(
        game: str, client: TestClient, web_data: WebData, matches: dict[str, Match]) -> None:
    """Every step's page (its alt text included) names nothing a seat held that the
    channel had not been shown by then (in the narration or its public view), and no
    event told to some seats only."""
    match = matches[game]
    info = get_game(game)
    shown: set[str] = set()
    hidden_ever = 0
    private = {line for step in match.steps for line in step.private} - {
        line for step in match.steps for line in step.said}
    for seen in match.steps:
        page = html.unescape(await page_of(client, address(web_data, match.id, seen.number)))
        shown |= named(seen.held - shown,
                       "\n".join((*seen.said, say(info.text(seen.public, match.names), "en",
                                                   match.names))))
        secret = seen.held - shown
        hidden_ever += len(secret)
        assert named(secret, page) == set(), seen.number
        assert not [line for line in private if line in page], seen.number
    if game == "flank":  # nothing to hide: every seat sees just what the channel sees
        assert all(seen.open_book for seen in match.steps) and not private
    else:
        assert hidden_ever > 0 and private, "the match had secrets to keep"
        assert not any(seen.open_book for seen in match.steps[1:-1])


class Watched:
    """Records the seats every state of the watched class is observed for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, kind: type[GameState]) -> None:
        self.seats: list[int | None] = []
        observe = kind.observe

        def watched(state: GameState, seat: int | None) -> Any:
            self.seats.append(seat)
            return observe(state, seat)

        monkeypatch.setattr(kind, "observe", watched)


@pytest.mark.parametrize("game", GAMES)
async def test_pages_and_pictures_are_made_from_the_channel_s_view_alone(
        game: str, client: TestClient, web_data: WebData, matches: dict[str, Match],
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = matches[game]
    info = get_game(game)
    watched = Watched(monkeypatch, type(info.new(match.row.options, len(match.row.seats), 0,
                                                 [s.setup for s in match.row.seats])))
    last = match.steps[-1].number
    for number in (0, last // 3, last):
        await page_of(client, address(web_data, match.id, number))
        got = await client.get(f"/s/{web_data.slug}/matches/{match.id}/steps/{number}.png")
        assert got.status == 200
    assert watched.seats and set(watched.seats) == {None}


# -- navigation ----------------------------------------------------------------------------------
async def test_steps_link_to_each_other_without_javascript(
        client: TestClient, web_data: WebData, matches: dict[str, Match]) -> None:
    match = matches["nails"]
    base = address(web_data, match.id)
    last = match.steps[-1].number
    first = await page_of(client, base)
    assert heading(first).endswith(f": step 0 of {last}")
    assert links_of(first) == {"next": f"{base}?step=1", "last": f"{base}?step={last}"}
    middle = await page_of(client, links_of(first)["next"])
    assert links_of(middle) == {"first": f"{base}?step=0", "prev": f"{base}?step=0",
                                "next": f"{base}?step=2", "last": f"{base}?step={last}"}
    assert f'<a href="{base}?step=1" aria-current="step">1</a>' in middle
    end = await page_of(client, links_of(middle)["last"])
    assert set(links_of(end)) == {"first", "prev"}
    assert f'<form class="replay-go" method="get" action="{base}">' in end
    assert '<script src="/static/replay.js" defer></script>' in end
    buttons = re.findall(r'<button type="button" data-go="(\w+)" aria-label="([^"]+)">', end)
    assert buttons == [("first", "First step"), ("previous", "Previous step"),
                       ("next", "Next step"), ("last", "Last step")]
    script = await client.get("/static/replay.js")
    assert script.status == 200
    text = await script.text()
    assert "history.replaceState" in text and "ArrowRight" in text and "End" in text


# -- bad addresses ------------------------------------------------------------------------------
async def running_match(store: Store, web_data: WebData) -> int:
    tournament = await store.tournaments.get(web_data.running_id)
    for pairing in await store.tournaments.pairings(web_data.running_id, tournament.round):
        if pairing.in_play:
            return pairing.match_id
    raise AssertionError("the running Swiss has a game in play")


async def test_only_a_finished_match_of_the_server_has_a_replay(
        client: TestClient, store: Store, web_data: WebData,
        matches: dict[str, Match]) -> None:
    match = matches["flank"]
    last = match.steps[-1].number
    slug = web_data.slug
    playing = await running_match(store, web_data)
    assert (await store.matches.get(playing)).status == "active"
    not_found = [
        address(web_data, playing), address(web_data, 999_999),
        address(web_data, web_data.dark_match_id),
        f"/s/{web_data.dark_slug}/matches/{web_data.dark_match_id}",
        f"/s/nosuchslug1/matches/{match.id}", f"/s/{slug}/matches/{match.id}x",
        f"/s/{slug}/matches/-1", f"/s/{slug}/matches/{'9' * 40}",
        address(web_data, match.id, last + 1), address(web_data, match.id, 9_999_999),
        f"/s/{slug}/matches/{match.id}/steps/{last + 1}.png",
        f"/s/{slug}/matches/{match.id}/steps/-1.png",
        f"/s/{slug}/matches/{match.id}/steps/1e3.png",
        f"/s/{slug}/matches/{playing}/steps/0.png",
        f"/s/{slug}/matches/{web_data.dark_match_id}/steps/0.png",
    ]
    bad = [f"{address(web_data, match.id)}?step={step}"
           for step in ("x", "-1", "1.5", "1e3", "", "%EF%BC%91", "9" * 8, "0x1")]
    for url, status in [(url, 404) for url in not_found] + [(url, 400) for url in bad]:
        response = await client.get(url)
        assert response.status == status, url
        text = await response.text()
        assert "Traceback" not in text and "<h1>" in text, url


# -- the cache -----------------------------------------------------------------------------------
async def test_a_match_asked_for_by_many_at_once_is_replayed_once_and_kept(
        store: Store, matches: dict[str, Match]) -> None:
    replays = Replays(store)
    ids = [match.id for match in matches.values()]
    got = await asyncio.gather(*(replays.replay(ids[0]) for _ in range(8)))
    assert replays.replayed == 1 and all(one is got[0] for one in got)
    assert await replays.replay(ids[0]) is got[0] and replays.replayed == 1
    assert await replays.replay(999_999) is None


async def test_the_cache_keeps_a_bounded_number_of_steps_and_pictures(
        store: Store, matches: dict[str, Match]) -> None:
    flank, nails = matches["flank"], matches["nails"]
    room = len(flank.steps) + len(nails.steps)
    replays = Replays(store, steps_kept=room, pictures_kept=2)
    kept = await replays.replay(flank.id)
    await replays.replay(nails.id)
    assert await replays.replay(flank.id) is kept and replays.replayed == 2
    await replays.replay(matches["duel"].id)  # more than the room: the oldest asked go
    assert replays.replayed == 3
    await replays.replay(flank.id)
    assert replays.replayed == 4
    assert kept is not None
    pictures = [await replays.picture(kept, n) for n in (0, 1, 2)]
    assert all(picture is not None for picture in pictures)
    assert await replays.picture(kept, 2) is pictures[2]  # kept
    assert replays.drawn == 3
    await replays.picture(kept, 0)  # drawn again: only two are kept
    assert replays.drawn == 4


# -- Discord links to the replay ---------------------------------------------------------------


async def test_a_result_links_to_its_replay_only_where_the_web_is_on(fake_discord, tmp_path):
    """A match's result in its channel has a link button to its replay where the server's
    pages are on and the bot knows their public address; elsewhere none."""
    from bot.config import Settings
    from bot.discord_side.client import CroupierBot
    from bot.discord_side.transport import REPLAY_LABEL
    from bot.settings.service import ServerConfig
    from tests.e2e import select_ids, select_values, table_message
    from tests.webstore import MANAGER

    bot = CroupierBot(Settings(_env_file=None, database=tmp_path / "results.sqlite3",
                               turn_seconds=300, warn_seconds=60,
                               web_url="https://croupier.example"))
    lit, dark = fake_discord.add_guild("Lit"), fake_discord.add_guild("Dark")
    ada = fake_discord.add_user("Ada")

    async def result_of(guild) -> tuple[int, object]:
        channel = guild.add_text_channel("solo")
        await fake_discord.slash(ada, channel, "play flank", vs_bot=True, board="4")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        while not match.finished:
            table = table_message(channel)
            menu = select_ids(table)[0]
            await fake_discord.select(ada, table, menu, [select_values(table, menu)[0]])
            await bot.service.settle()
        return match.id, await fake_discord.wait_for_message(channel, contains="is over")

    async with fake_discord.running(bot):
        slug = (await ServerConfig(bot.store).set_web(MANAGER, lit.id, True)).slug
        match_id, result = await result_of(lit)
        assert [(b.label, b.url) for b in result.buttons] == [
            (REPLAY_LABEL.english(), f"https://croupier.example/s/{slug}/matches/{match_id}")]
        _, elsewhere = await result_of(dark)  # its pages never turned on
        assert elsewhere.buttons == []
