"""Trades and pack openings in three processes at once (issue 31, part 3): one server
per cluster, the same four people in each, every claim, opening, offer, accept and
confirm of all three servers fired together, so the three processes write copies,
serials and the ledger into one PostgreSQL database at the same moments. Afterwards
every server's books balance (``/audit``, answered by its own cluster, and the audit
read here), every copy is where the ledger says, and nothing is left locked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.duel.collections import CONFIRM_SECONDS
from tests.clusters import Clusters, clusters_running
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionResult
from tests.fakediscord.model.constants import MANAGE_GUILD

RED_GREEN, BLUE_BLACK = "ember-and-grove", "tide-and-night"
PACKS = 1
"""Packs each person is given, and opens, in each server."""


@pytest.fixture
async def clusters(fake_discord: FakeDiscord,
                   request: pytest.FixtureRequest) -> AsyncIterator[Clusters]:
    async with clusters_running(fake_discord, request) as running:
        yield running


def answered(result: InteractionResult) -> str:
    """What the bot answered, failing on an answer that is not one."""
    assert result.acked, result
    return result.text


async def test_trades_and_packs_in_three_processes_keep_the_books(clusters: Clusters) -> None:
    fake = clusters.fake
    guilds = [clusters.guild_of(i, f"Market {i}", channels=("market",)) for i in range(3)]
    markets: list[FakeChannel] = [g.channel("market") for g in guilds]
    bosses = [g.add_user(f"Boss {n}", roles=(g.add_role("Managers", MANAGE_GUILD),))
              for n, g in enumerate(guilds)]
    people = [fake.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    decks = dict(zip(people, (RED_GREEN, BLUE_BLACK) * 2, strict=True))
    # Each gives two of a card of their own starter and asks one of the next person's,
    # never one that person gives: no two trades need the same copy.
    pairs: list[tuple[FakeUser, FakeUser]] = list(zip(people, people[1:] + people[:1],
                                                      strict=True))
    gives = {RED_GREEN: "Ashpeak", BLUE_BLACK: "Murkfen"}
    asks = {RED_GREEN: "Mossvale", BLUE_BLACK: "Mistshore"}
    await clusters.start()

    claims = await asyncio.gather(*(fake.slash(p, m, "starter", deck=decks[p])
                                    for m in markets for p in people))
    assert all("40 cards are now yours" in answered(c) for c in claims)
    given = await asyncio.gather(*(fake.slash(boss, m, "pack give", user=p, count=PACKS)
                                   for boss, m in zip(bosses, markets, strict=True)
                                   for p in people))
    assert all("gave you" in answered(g) for g in given)

    # Every opening and every offer of the three servers at once.
    openings = [fake.slash(p, m, "pack open", timeout=20)
                for m in markets for p in people for _ in range(PACKS)]
    offers = [fake.slash(giver, m, "trade offer", user=taker, timeout=20,
                         give=f"2 {gives[decks[giver]]}", get=asks[decks[taker]])
              for m in markets for giver, taker in pairs]
    done = await asyncio.gather(*openings, *offers)
    opened, offered = done[:len(openings)], done[len(openings):]
    assert all(not answered(o).startswith("⚠️") for o in opened), [o.text for o in opened]
    assert all(not o.ephemeral for o in offered), [o.text for o in offered]
    # Each taker accepts twice at once, everywhere at once.
    accepts = await asyncio.gather(*(fake.click(taker, o.message, label="Accept", timeout=20)
                                     for o, (_, taker) in zip(offered, pairs * 3, strict=True)
                                     for _ in range(2)))
    assert all(a.type == 7 for a in accepts), [a.text for a in accepts]
    await asyncio.sleep(CONFIRM_SECONDS)  # the confirm window: the bots' own clocks
    confirms = await asyncio.gather(*(fake.click(who, o.message, label="Confirm", timeout=20)
                                      for o, pair in zip(offered, pairs * 3, strict=True)
                                      for who in pair))
    assert all(c.type == 7 for c in confirms), [c.text for c in confirms]
    assert all("Done: the cards changed hands" in o.message.text for o in offered)

    store = clusters.store
    for guild, boss, market in zip(guilds, bosses, markets, strict=True):
        assert await store.collections.audit(guild.id) == []
        copies = len(people) * (40 + PACKS * 15)
        books = await fake.slash(boss, market, "audit")
        trades = len(pairs) * 3  # two copies given and one asked in each
        assert f"The books balance: {copies} copies, {copies + trades} ledger rows." \
            in books.content, books.content
        owned = free = 0
        for person in people:
            for count in (await store.collections.counts(guild.id, person.id)).values():
                owned += count.owned
                free += count.free
        assert owned == free == copies
    moved = await store.db.fetchone("SELECT COUNT(*) FROM ledger WHERE why = 'trade'")
    assert moved[0] == len(guilds) * len(pairs) * 3  # two given and one asked, each trade
    assert not await store.db.fetchall("SELECT * FROM copy_locks")
