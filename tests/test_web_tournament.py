"""The tournament page (bot/web/pages/tournament.py) over a store filled through the real
services (tests/webstore.py): the standings exactly as the tournament service ranks
them, the bracket as accessible SVG (single elimination's top cut, double elimination
with its grand final reset), live pairings and each round's history linking finished
games to their replays, the version a running tournament's page polls (and nothing
polled once it is over), bad ids and other servers' tournaments refused; the bracket's
layout on its own (every match of a 64-player double elimination drawn, none on top of
another); and the link button on the Discord tournament message.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.pictures.tournament import note_marks, standing_cells
from bot.settings.service import ServerConfig
from bot.tournaments.terms import STANDING_HEADS
from bot.web.app import SERVER_OPTIONS, build_app
from bot.web.bracket_svg import BOX_H, BOX_W, layout
from rules.tournament.elimination import DoubleEliminationFormat, SingleEliminationFormat
from rules.tournament.model import Entrant, Result
from storage import Store
from tests.webstore import GUILD, MANAGER, ORGANISER, SCRIPT, TEMPLATE, WebData, filled_copy

DARK = 999_001


# -- reading a page ---------------------------------------------------------------------------
class Tables(HTMLParser):
    """Each table's rows (the text of every cell) by the table's class; every link; the
    page's headings; and the ``data-*`` attributes of ``#tournament``."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.links: list[str] = []
        self.headings: list[str] = []
        self.root: dict[str, str] = {}
        self.scripts: list[str] = []
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._in_body = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "table":
            self._table = found.get("class", "")
            self.tables.setdefault(self._table, [])
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "a":
            self.links.append(found.get("href", ""))
        elif re.fullmatch(r"h[1-6]", tag):
            self.headings.append(tag)
        elif tag == "script":
            self.scripts.append(found.get("src", ""))
        if found.get("id") == "tournament":
            self.root = {k: v for k, v in found.items() if k.startswith("data-")}

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table is not None:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@dataclass
class Site:
    client: TestClient
    store: Store
    data: WebData
    slug: str

    def url(self, tournament_id: int | str, tail: str = "") -> str:
        return f"/s/{self.slug}/tournaments/{tournament_id}{tail}"

    async def page(self, tournament_id: int | str) -> tuple[str, Tables]:
        answer = await self.client.get(self.url(tournament_id))
        assert answer.status == 200, answer.status
        text = await answer.text()
        return text, Tables(text)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    return filled_copy(tmp_path_factory.mktemp("web-tournament"))


@pytest.fixture
async def site(filled: WebData, tmp_path: Path) -> AsyncIterator[Site]:
    copy = filled_copy(tmp_path)  # each test its own file: some write to it
    store = await Store.open(copy.path)
    slug = copy.slug or (await ServerConfig(store).set_web(MANAGER, GUILD, True)).slug
    async with TestClient(TestServer(build_app(store), **SERVER_OPTIONS)) as client:
        yield Site(client, store, copy, slug)
    await store.close()


async def service_standings(store: Store, tournament_id: int) -> list[tuple[str, ...]]:
    """The tournament service's standings as the Discord picture writes each line."""
    from bot.tournaments.formats import read_progress

    tournament = await store.tournaments.get(tournament_id)
    assert tournament is not None
    progress = await read_progress(store, tournament)
    lines = progress.standings()
    names = {e.user_id: e.name for e in progress.entrants}
    marks = note_marks(lines)
    return [(cells[0], names[line.entrant], *cells[2:])
            for line in lines for cells in [standing_cells(line, marks)]]


# -- finished tournaments -------------------------------------------------------------------------
async def test_a_finished_swiss_with_a_top_cut_shows_the_services_standings_and_its_cut(site):
    data = site.data
    text, page = await site.page(data.swiss_id)
    assert page.headings.count("h1") == 1
    rows = page.tables["standings"]
    expected = await service_standings(site.store, data.swiss_id)
    assert [tuple(row) for row in rows] == [
        (rank, name, *figures) for rank, name, *figures in expected]
    assert [name for _, name, *_ in expected] == [data.name(u) for u in data.standings[
        data.swiss_id]]
    assert len(rows[0]) == len(STANDING_HEADS)  # every tiebreaker of a Swiss
    for user in data.standings[data.swiss_id]:  # a line to link to, each
        assert f'<tr id="player-{user}"' in text
    # The top cut's bracket: accessible SVG whose champion is the standings' first.
    svg = text[text.index("<svg"):text.index("</svg>")]
    assert 'role="img"' in svg and 'aria-labelledby="bracket-title bracket-desc"' in svg
    assert '<title id="bracket-title">' in svg and '<desc id="bracket-desc">' in svg
    champion = data.name(data.champions[data.swiss_id])
    assert f"Champion: {escape(champion)}." in svg
    assert svg.count('class="br-match') == 3  # two semi-finals and the final
    # Every game of the tournament links to its replay; a finished one does not poll.
    games = await site.store.tournaments.games(data.swiss_id)
    replays = {f"/s/{site.slug}/matches/{g.match_id}" for g in games}
    assert replays and replays <= set(page.links)
    assert "data-poll" not in page.root and "data-every" not in page.root
    # Hostile names are text.
    assert SCRIPT not in text and escape(SCRIPT) in text and escape(TEMPLATE) in text


async def test_a_double_elimination_shows_its_grand_final_reset_and_champion(site):
    data = site.data
    text, page = await site.page(data.double_id)
    svg = text[text.index("<svg"):text.index("</svg>")]
    for match in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF", "GF2"):
        assert f'data-match="{match}"' in svg
    shown = html.unescape(svg)  # an apostrophe may be written &#39;
    assert ">Winners' bracket<" in shown and ">Losers' bracket<" in shown
    assert ">Grand final reset<" in shown
    champion = escape(data.name(data.champions[data.double_id]))
    assert f"Champion: {champion}." in svg
    assert [row[1] for row in page.tables["standings"]] == [
        data.name(u) for u in data.standings[data.double_id]]
    assert len(page.tables["standings"][0]) == 4  # a bracket ranks by how far: no percentages
    history = page.tables["pairings"]
    assert len(history) == 7  # every match of the 4-player bracket, the reset too


# -- a running tournament ------------------------------------------------------------
async def test_a_running_swiss_polls_a_cheap_version_and_shows_each_change(site):
    data = site.data
    _, page = await site.page(data.running_id)
    poll = site.url(data.running_id, "/version")
    assert page.root["data-poll"] == poll and "/static/tournament.js" in page.scripts
    current = page.tables["pairings"][:3]
    assert any("playing" in row[2] for row in current)

    answer = await site.client.get(poll)
    news = json.loads(await answer.text())
    assert news == {"version": page.root["data-version"], "live": True}
    tag = answer.headers["ETag"]
    assert (await site.client.get(poll, headers={"If-None-Match": tag})).status == 304
    assert (await site.client.get(site.url(data.running_id),
                                  headers={"If-None-Match": tag})).status == 304

    # The organiser enters a result: the version moves and the page shows it.
    tournament = await site.store.tournaments.get(data.running_id)
    pairing = next(p for p in await site.store.tournaments.pairings(
        data.running_id, tournament.round) if not p.done)
    await site.store.tournaments.report(
        data.running_id, pairing.round, pairing.table, places=(2, 1), games=(0, 1),
        by_user=ORGANISER.user_id, why="test")
    moved = json.loads(await (await site.client.get(poll)).text())
    assert moved["version"] != news["version"]
    assert (await site.client.get(poll, headers={"If-None-Match": tag})).status == 200
    _, after = await site.page(data.running_id)
    assert after.root["data-version"] == moved["version"]
    winner = data.name(pairing.seats[1])
    row = next(r for r in after.tables["pairings"] if r[0] == str(pairing.table))
    assert row[2] == f"{winner} wins 1-0 (entered by the organiser)"

    # A drop moves it too.
    await site.store.tournaments.drop(data.running_id, pairing.seats[0],
                                      by_user=ORGANISER.user_id)
    dropped = json.loads(await (await site.client.get(poll)).text())
    assert dropped["version"] != moved["version"]


async def test_a_change_seen_by_many_pages_at_once_is_worked_out_once(site, monkeypatch):
    import asyncio

    from bot.web.pages import tournament as pages

    made: list[str] = []
    build = pages.build_view

    def counted(progress, games, version):
        made.append(version)
        return build(progress, games, version)

    monkeypatch.setattr(pages, "build_view", counted)
    answers = await asyncio.gather(*(site.client.get(site.url(site.data.running_id))
                                     for _ in range(6)))
    assert [a.status for a in answers] == [200] * 6
    assert len({await a.text() for a in answers}) == 1 and len(made) == 1
    await site.client.get(site.url(site.data.running_id))
    assert len(made) == 1  # kept under its version


async def made(store: Store, *, format: str, game: str = "flank", players: int,
               rounds: int | None, settings: dict | None = None) -> int:
    """A tournament of ``players`` on the web's server, filled through the store's own
    writes as the service makes them: open only (``rounds`` ``None``), or started with
    ``rounds`` rounds decided (the first seat of each table wins)."""
    from bot.tournaments.formats import plan_rows, read_progress

    tid = await store.tournaments.create(
        guild_id=GUILD, channel_id=5, name=f"{format} cup", game=game, format=format,
        options={}, settings=settings or {}, organiser_id=7, seed=3)
    await store.tournaments.set_status(tid, "open", allowed=("created",), doing="open")
    for user in range(1, players + 1):
        await store.tournaments.join(tid, 5000 + user, f"P{user}")
    if rounds is None:
        return tid
    tournament = await store.tournaments.get(tid)
    progress = await read_progress(store, tournament)
    seeds = [(e.user_id, n) for n, e in enumerate(progress.entrants, start=1)]
    plan = progress.main.next_round([Entrant(u, n) for u, n in seeds], [], tournament.seed)
    await store.tournaments.start(tid, seeds, plan_rows(plan))
    for round_no in range(1, rounds + 1):
        for p in await store.tournaments.pairings(tid, round_no):
            if not p.done:
                await store.tournaments.report(
                    tid, round_no, p.table, places=tuple(range(1, len(p.seats) + 1)),
                    games=(1,) + (0,) * (len(p.seats) - 1), by_user=7, why="")
        step = (await read_progress(store, await store.tournaments.get(tid))).next_round()
        if step is None:
            break
        await store.tournaments.add_round(tid, step.round, step.pairings, stage=step.stage)
    return tid


async def test_every_format_and_a_tournament_not_yet_started_have_their_page(site):
    heads = ["#", "Player"]
    pods = await made(site.store, format="pods", game="eclipse", players=9, rounds=2)
    text, page = await site.page(pods)
    assert [len(row) for row in page.tables["standings"]] == [len(heads) + 3] * 9
    assert "<svg" not in text and any(", " in row[1] for row in page.tables["pairings"])

    robin = await made(site.store, format="round_robin", players=5, rounds=3)
    _, page = await site.page(robin)
    assert [len(row) for row in page.tables["standings"]] == [len(heads) + 5] * 5

    single = await made(site.store, format="single", players=6, rounds=1,
                        settings={"third_place": True})
    text, page = await site.page(single)
    svg = text[text.index("<svg"):text.index("</svg>")]
    assert svg.count(">bye<") == 2 and 'data-match="3P"' in svg and ">Third place<" in svg
    assert [len(row) for row in page.tables["standings"]] == [len(heads) + 2] * 6

    waiting = await made(site.store, format="swiss", players=3, rounds=None)
    text, page = await site.page(waiting)
    assert "standings" not in page.tables and "<svg" not in text
    assert "The first round is paired when the tournament starts." in text
    assert all(f"<li>P{n}</li>" in text for n in (1, 2, 3))
    assert page.root["data-poll"]


# -- refusals ----------------------------------------------------------------------
async def test_bad_ids_and_other_servers_tournaments_are_plain_404s(site):
    other = await site.store.tournaments.create(
        guild_id=DARK, channel_id=1, name=SCRIPT, game="flank", format="swiss", options={},
        settings={}, organiser_id=1, seed=1)
    for bad in ("0", "-1", "abc", "1e3", "99999999", str(2**63), "9" * 40, "%00", str(other)):
        for tail in ("", "/version"):
            answer = await site.client.get(site.url(bad, tail))
            text = await answer.text()
            assert answer.status == 404, (bad, tail)
            assert "Traceback" not in text and SCRIPT not in text
    answer = await site.client.get(f"/s/{'x' * 22}/tournaments/{site.data.swiss_id}")
    assert answer.status == 404


@pytest.mark.engines
async def test_the_version_moves_with_every_change_a_page_shows_and_only_then(store):
    from bot.tournaments.formats import plan_rows, read_progress

    t = store.tournaments
    assert await t.version(12345) is None
    tid = await made(store, format="swiss", players=3, rounds=None)
    other = await made(store, format="swiss", players=2, rounds=None)
    seen = [await t.version(tid)]

    async def moved() -> None:
        now = await t.version(tid)
        assert now not in seen, "the version did not move"
        seen.append(now)

    await t.join(other, 9001, "Elsewhere")  # another tournament's change
    assert await t.version(tid) == seen[-1]
    await t.leave(tid, 5003)
    await moved()
    await t.join(tid, 5009, "Late")  # as many, the last number reused: who changed
    await moved()
    await t.set_status(tid, "checkin", allowed=("open",), doing="check-in")
    await moved()
    await t.check_in(tid, 5001)
    await moved()
    await t.close_check_in(tid)
    await moved()
    await t.join(tid, 5010, "Later")
    await t.join(tid, 5011, "Latest")
    await moved()
    tournament = await t.get(tid)
    progress = await read_progress(store, tournament)
    seeds = [(e.user_id, n) for n, e in enumerate(progress.entrants, start=1)]
    plan = progress.main.next_round([Entrant(u, n) for u, n in seeds], [], tournament.seed)
    await t.start(tid, seeds, plan_rows(plan))
    await moved()
    first = (await t.pairings(tid, 1))[0]
    await t.report(tid, 1, first.table, places=(1, 2), games=(1, 0), by_user=7, why="")
    await moved()
    await t.report(tid, 1, first.table, places=(2, 1), games=(0, 1), by_user=7, why="fix")
    await moved()
    await t.drop(tid, first.seats[0], by_user=7)
    await moved()
    assert await t.version(tid) == seen[-1]  # nothing changed: the same


# -- the bracket's layout on its own ---------------------------------------------------------------
def test_a_64_player_double_elimination_draws_every_match_apart() -> None:
    people = [Entrant(n, n) for n in range(1, 65)]
    double = DoubleEliminationFormat()
    results: list[Result] = []
    while (plan := double.next_round(people, results)) is not None:
        results += [Result(plan.round, seats, (1,), (2,)) if len(seats) == 1 else
                    Result(plan.round, seats, (1, 2) if min(seats) == seats[0] else (2, 1))
                    for seats in plan.pairings]
    bracket = double.bracket(people, results)
    drawing = layout(bracket, {n: f"Player {n}" for n in range(1, 65)},
                     {n: n for n in range(1, 65)})
    assert drawing is not None
    drawn = {box.id for box in drawing.boxes}
    played = {m.id for m in bracket.matches if m.status != "void"}
    assert played <= drawn and len(drawn) >= 63 + 62 + 1
    for a in drawing.boxes:  # no two boxes overlap
        for b in drawing.boxes:
            if a.id < b.id:
                assert (abs(a.x - b.x) >= BOX_W or abs(a.y - b.y) >= BOX_H), (a.id, b.id)
    assert all(box.x >= 0 and box.x + BOX_W <= drawing.width for box in drawing.boxes)
    assert all(box.y >= 0 and box.y + BOX_H <= drawing.height for box in drawing.boxes)
    assert drawing.champion_full == "Player 1" and drawing.entrants == 64


def test_byes_and_the_match_for_third_place_are_drawn() -> None:
    people = [Entrant(n, n) for n in range(1, 6)]
    single = SingleEliminationFormat(third_place=True)
    bracket = single.bracket(people, [])
    drawing = layout(bracket, {n: "界" * 30 if n == 5 else f"P{n}" for n in range(1, 6)},
                     {n: n for n in range(1, 6)})
    assert drawing is not None
    byes = [s for box in drawing.boxes for s in box.slots if s.bye]
    assert len(byes) == 3  # 5 players in a bracket of 8
    assert "3P" in {box.id for box in drawing.boxes}
    long = next(s for box in drawing.boxes for s in box.slots if s.full == "界" * 30)
    assert long.name == "界" * 9 + "…"
    assert drawing.champion is None


def escape(text: str) -> str:
    """As the templates escape text (Jinja2's autoescape)."""
    from markupsafe import escape as markup_escape

    return str(markup_escape(text))


# -- the link button on the Discord tournament message -----------------------------------------
async def test_the_tournament_message_links_to_its_page_only_where_the_web_is_on(
        fake_discord, tmp_path):
    import asyncio

    from bot.config import Settings
    from bot.discord_side.client import CroupierBot
    from bot.discord_side.tournament_views import PAGE_LABEL
    from bot.tournaments.model import Member
    from tests.fakediscord.model.constants import MANAGE_GUILD

    base = "https://croupier.example/"
    bot = CroupierBot(Settings(_env_file=None, database=tmp_path / "link.sqlite3",
                               turn_seconds=300, warn_seconds=60, web_url=base))
    lit, dark = fake_discord.add_guild("Lit"), fake_discord.add_guild("Dark")

    async def tournament_message(guild):
        channel = guild.add_text_channel("tournaments")
        boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
        made = await fake_discord.slash(boss, channel, "tournament create", game="flank")
        assert not made.ephemeral, made.content
        who = Member(boss.id, "Boss", manages_server=True, guild_id=guild.id)
        tid = (await bot.tournaments.latest(who, channel.id)).id
        for _ in range(200):  # the command ends once it remembered its message
            if (await bot.tournaments.get(who, tid)).message_id is not None:
                break
            await asyncio.sleep(0.025)
        opened = await fake_discord.slash(boss, channel, "tournament open")
        assert "open" in opened.content  # its message is edited: Join and Leave now
        await bot.tournaments.settle()
        await fake_discord.wait_until_idle(quiet=0.2, timeout=10)
        message = [m for m in channel.messages if m.content.startswith("🏆")][-1]
        return tid, message

    async with fake_discord.running(bot):
        slug = (await ServerConfig(bot.store).set_web(MANAGER, lit.id, True)).slug
        tid, message = await tournament_message(lit)
        links = [b for b in message.buttons if b.url is not None]
        page = PAGE_LABEL.english()
        assert [(b.label, b.url) for b in links] == [
            (page, f"https://croupier.example/s/{slug}/tournaments/{tid}")]
        assert {b.label for b in message.buttons} == {"Join", "Leave", page}
        _, elsewhere = await tournament_message(dark)  # its web never turned on
        assert elsewhere.buttons and all(b.url is None for b in elsewhere.buttons)
