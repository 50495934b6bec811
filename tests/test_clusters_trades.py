"""Trades, pack openings and an ante duel in two processes at once (issue 31, part 3).

Two servers, one per cluster, the same four people in each. In the Arena (cluster
1's) Ada and Bo play a duel for ante: cluster 1 stakes a copy of each as it starts,
but they play from their DMs, which cluster 0 serves, so cluster 0 writes the duel's
moves and, at its end, pays the ante out of the Arena's books. Meanwhile, on both
servers, every opening, offer, accept and confirm is fired at once: two processes
write one server's copies, locks and ledger at the same moments. Afterwards each
server's books balance (``/audit``, answered by its own cluster, and the audit read
here), every copy is where the ledger says, and nothing is left locked."""

from __future__ import annotations

import asyncio

from bot.duel.collections import CONFIRM_SECONDS
from tests.clusterplay import open_table, whole_log_checked
from tests.clusters import Clusters, clusters_fixture
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionResult
from tests.fakediscord.model.constants import MANAGE_GUILD

RED_GREEN, BLUE_BLACK = "ember-and-grove", "tide-and-night"
PACKS = 1
"""Packs each person is given, and opens, on each server."""
SEED = 20261127


clusters = clusters_fixture(count=2, seed=SEED)


def answered(result: InteractionResult) -> str:
    """What the bot answered (it must have answered)."""
    assert result.acked, result
    return result.text


async def market_day(fake: FakeDiscord, markets: list[FakeChannel],
                     people: list[FakeUser], decks: dict[FakeUser, str]) -> int:
    """On every market at once: each person opens their packs and offers the next
    person two of a card of their starter for one of the next person's (never one that
    person gives: no two offers want the same copy); each offer accepted twice at
    once, then, once the confirm window opens, confirmed by both at once. How many
    trades were made."""
    gives = {RED_GREEN: "Ashpeak", BLUE_BLACK: "Murkfen"}
    asks = {RED_GREEN: "Mossvale", BLUE_BLACK: "Mistshore"}
    pairs = list(zip(people, people[1:] + people[:1], strict=True)) * len(markets)
    places = [m for m in markets for _ in people]
    openings = [fake.slash(p, m, "pack open", timeout=20)
                for m in markets for p in people for _ in range(PACKS)]
    offers = [fake.slash(giver, m, "trade offer", user=taker, timeout=20,
                         give=f"2 {gives[decks[giver]]}", get=asks[decks[taker]])
              for m, (giver, taker) in zip(places, pairs, strict=True)]
    done = await asyncio.gather(*openings, *offers)
    opened, offered = done[:len(openings)], done[len(openings):]
    assert all(not answered(o).startswith("⚠️") for o in opened), [o.text for o in opened]
    assert all(not o.ephemeral for o in offered), [o.text for o in offered]
    accepts = await asyncio.gather(*(fake.click(taker, o.message, label="Accept", timeout=20)
                                     for o, (_, taker) in zip(offered, pairs, strict=True)
                                     for _ in range(2)))
    assert all(a.type == 7 for a in accepts), [a.text for a in accepts]
    await asyncio.sleep(CONFIRM_SECONDS)  # the confirm window: the bots' own clocks
    confirms = await asyncio.gather(*(fake.click(who, o.message, label="Confirm", timeout=20)
                                      for o, pair in zip(offered, pairs, strict=True)
                                      for who in pair))
    assert all(c.type == 7 for c in confirms), [c.text for c in confirms]
    assert all("Done: the cards changed hands" in o.message.text for o in offered)
    return len(offered)


async def test_trades_packs_and_an_ante_duel_in_two_processes_keep_the_books(
        clusters: Clusters) -> None:
    fake = clusters.fake
    store = clusters.store
    home = clusters.guild_of(0, "Home", channels=("market",))
    arena = clusters.guild_of(1, "Arena", channels=("market", "duel"))
    guilds = [home, arena]
    markets = [g.channel("market") for g in guilds]
    bosses = [g.add_user(f"Boss {n}", roles=(g.add_role("Managers", MANAGE_GUILD),))
              for n, g in enumerate(guilds)]
    people = [fake.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    ada, bo = people[:2]
    decks = dict(zip(people, (RED_GREEN, BLUE_BLACK) * 2, strict=True))
    await clusters.start()

    claims = await asyncio.gather(*(fake.slash(p, m, "starter", deck=decks[p])
                                    for m in markets for p in people))
    assert all("40 cards are now yours" in answered(c) for c in claims)
    given = await asyncio.gather(*(fake.slash(boss, m, "pack give", user=p, count=PACKS)
                                   for boss, m in zip(bosses, markets, strict=True)
                                   for p in people))
    assert all("gave you" in answered(g) for g in given)
    allowed = await fake.slash(bosses[1], markets[1], "config ante", allowed=True)
    assert not answered(allowed).startswith("⚠️"), allowed.text
    duel = await open_table(clusters, arena.channel("duel"), {0: ada, 1: bo}, "duel",
                            seed=4, ante=True, life=1, deck=decks[ada],
                            joins={1: {"deck": decks[bo]}})
    staked = await store.db.fetchall(
        "SELECT copy_id FROM copy_locks WHERE kind = 'ante' AND ref = ?", (duel.match_id,))
    assert len(staked) == 2

    playing = asyncio.ensure_future(duel.play())
    trades = await market_day(fake, markets, people, decks)
    ended = await playing
    await whole_log_checked(duel, ended)
    assert duel.ways()["dm"] >= 5, duel.ways()
    await fake.wait_for_message(arena.channel("duel"), contains="is over", timeout=10)

    ante = await store.db.fetchall(
        "SELECT copy_id, from_owner, to_owner FROM ledger WHERE why = 'ante' AND ref = ?",
        (duel.match_id,))
    outcome = ended.state.outcome()
    assert outcome is not None
    assert len(ante) == (0 if outcome.is_draw else 1), ante  # the loser's copy, once
    assert not await store.db.fetchall("SELECT * FROM copy_locks")
    for guild, boss, market in zip(guilds, bosses, markets, strict=True):
        assert await store.collections.audit(guild.id) == []
        copies = len(people) * (40 + PACKS * 15)
        moved = trades // len(guilds) * 3 + (len(ante) if guild is arena else 0)
        books = await fake.slash(boss, market, "audit")
        assert f"The books balance: {copies} copies, {copies + moved} ledger rows." \
            in books.content, books.content
        owned = 0
        for person in people:
            owned += sum(c.owned for c in
                         (await store.collections.counts(guild.id, person.id)).values())
        assert owned == copies
