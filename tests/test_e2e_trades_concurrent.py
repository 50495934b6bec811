"""Trades and packs under contention: dozens of trades at once over the same copies
through the real discord.py client (offers, double accepts, cancels racing accepts,
both people confirming at once, replayed interactions), then hundreds of trades and
pack openings at once through the service. Afterwards: the audit is clean, every copy
is still there with one owner, nothing is locked that should not be, and every refused
action changed nothing (the books before and after it agree)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter

import pytest

from bot.clock import FakeClock
from bot.duel.collections import CollectionService, PackGiver
from bot.errors import CroupierError
from rules.duel.decks import starter
from tests.e2e import make_bot

RED_GREEN, BLUE_BLACK = "ember-and-grove", "tide-and-night"
CARDS = ("Ashpeak", "Mossvale", "Murkfen", "Kindlewhip", "Brinewing Skimmer")
WAVES = 2
AT_ONCE = 30
"""Offers made at the same moment in each wave: 60 trades in all through the client."""


async def totals(bot, guild: int, users) -> tuple[Counter, int]:
    """Copies per card over everyone, and how many are locked."""
    counted: Counter = Counter()
    locked = 0
    for user in users:
        for card, count in (await bot.store.collections.counts(guild, user)).items():
            counted[card] += count.owned
            locked += count.owned - count.free
    return counted, locked


async def test_dozens_of_trades_at_once_through_the_client(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("market")
    people = [fake_discord.add_user(name) for name in ("Ada", "Bo", "Cy", "Di")]
    clock = FakeClock()
    bot = make_bot(tmp_path / "market.sqlite3", clock=clock)
    rng = random.Random(5)
    async with fake_discord.running(bot):
        for person, deck in zip(people, (RED_GREEN, BLUE_BLACK) * 2, strict=True):
            await fake_discord.slash(person, channel, "starter", deck=deck)
        start = Counter()
        for deck in (RED_GREEN, BLUE_BLACK) * 2:
            start.update(starter(deck))
        ids = [p.id for p in people]
        done = refused = 0
        for _ in range(WAVES):
            pairs = [rng.sample(people, 2) for _ in range(AT_ONCE)]
            offers = await asyncio.gather(*(fake_discord.slash(
                giver, channel, "trade offer", user=taker,
                give=f"{rng.randint(1, 3)} {rng.choice(CARDS)}",
                get=rng.choice([None, rng.choice(CARDS)])) for giver, taker in pairs))
            live = [(o, taker) for o, (_, taker) in zip(offers, pairs, strict=True)
                    if not o.ephemeral]
            refused += len(offers) - len(live)
            assert all(o.content.startswith("⚠️") for o in offers if o.ephemeral)
            # Each receiver accepts twice at once; every fourth offer is cancelled by its
            # maker while that happens.
            clicks = [fake_discord.click(taker, o.message, label="Accept")
                      for o, taker in live for _ in range(2)]
            clicks += [fake_discord.click(o.interaction.user, o.message, label="Cancel")
                       for o, _ in live[::4]]
            answered = await asyncio.gather(*clicks)
            # A replayed accept is dropped: one answer per interaction.
            again = await fake_discord.redeliver(answered[0])
            clock.advance(5)
            confirms = [fake_discord.click(who, o.message, label="Confirm")
                        for o, taker in live if "Confirm" in [b.label for b in o.message.buttons]
                        for who in (o.interaction.user, taker)]
            results = await asyncio.gather(*confirms)
            for result in results:
                assert result.type == 7 or result.content.startswith("⚠️"), result.content
            done += sum("Done: the cards changed hands" in o.message.text for o, _ in live)
            assert again.callback_attempts == 1
            report = await bot.collections.audit_report(guild.id)
            assert report.problems == ()
            clock.advance(3600)
            await bot.trade_desk.sweep()  # what is left expires, and its message says so
            for offer, _ in live:
                text = offer.message.text
                assert any(word in text for word in ("Done", "Cancelled", "Expired")), text
        assert done >= 5 and refused >= 1  # trades went through, and offers collided
        counted, locked = await totals(bot, guild.id, ids)
        assert counted == start and locked == 0
        rows = await bot.store.db.fetchone(
            "SELECT COUNT(*) FROM ledger l JOIN trades t ON t.id = l.ref"
            " WHERE l.why = 'trade' AND t.status <> 'done'")
        assert rows[0] == 0  # no refused or lapsed trade moved anything
        await fake_discord.wait_until_idle(quiet=0.2)


@pytest.mark.engines  # the ledger kept whole under contention on either engine
async def test_hundreds_of_trades_and_packs_at_once_through_the_service(store):
    clock = FakeClock()
    service = CollectionService(store, clock, rng_factory=lambda: random.Random(11),
                                run_sizes={"rare": 3, "uncommon": 5, "common": 20})
    guild, people = 1, list(range(200, 206))
    boss = PackGiver(999, manages_server=True)
    for person, deck in zip(people, (RED_GREEN, BLUE_BLACK) * 3, strict=True):
        await service.claim_starter(guild, person, deck)
        await service.give_packs(guild, boss, person, 10)
    rng = random.Random(9)

    async def books():
        return (await store.db.fetchall("SELECT id, owner_id FROM copies ORDER BY id"),
                await store.db.fetchall("SELECT copy_id, kind, ref FROM copy_locks"
                                        " ORDER BY copy_id"))

    async def trade() -> str:
        giver, taker = rng.sample(people, 2)
        # Cards each side had a moment ago: by the time the offer is written, other
        # trades and openings may have taken them (those offers are refused).
        mine = sorted(await store.collections.counts(guild, giver))
        theirs = sorted(await store.collections.counts(guild, taker))
        try:
            offer = await service.offer(guild, giver, taker,
                                        f"{rng.randint(1, 2)} {rng.choice(mine)}",
                                        rng.choice(["", rng.choice(theirs)]))
        except CroupierError:
            return "refused"
        steps = [service.accept(offer.id, taker, guild=guild) for _ in range(2)]
        if rng.random() < 0.2:
            steps.append(service.cancel(offer.id, giver, guild=guild))
        await asyncio.gather(*steps, return_exceptions=True)
        return "offered"

    async def pack(person: int) -> int:
        return len((await service.open_pack(guild, person)).copies)

    jobs = [trade() for _ in range(240)] + [pack(p) for p in people for _ in range(10)]
    rng.shuffle(jobs)
    outcomes = await asyncio.gather(*jobs, return_exceptions=True)
    assert not [o for o in outcomes if isinstance(o, BaseException)]
    assert outcomes.count(15) == 60 and outcomes.count("refused") >= 10
    clock.advance(5)
    live = [t for p in people for t in await service.open_trades(guild, p)]
    live = list({t.id: t for t in live}.values())
    confirms = [service.confirm(t.id, who, guild=guild) for t in live
                for who in (t.offerer, t.receiver, t.receiver)]
    settled = await asyncio.gather(*confirms, return_exceptions=True)
    assert all(isinstance(s, CroupierError) or s.status in ("accepted", "done")
               for s in settled)
    assert any(not isinstance(s, BaseException) and s.status == "done" for s in settled)
    # Every refusal from here on changes nothing.
    before = await books()
    for t in live:
        for attempt in (service.accept(t.id, t.offerer, guild=guild),
                        service.cancel(t.id, 12345, guild=guild),
                        service.confirm(t.id, t.offerer, guild=guild + 1)):
            with contextlib.suppress(CroupierError):
                await attempt
    assert await books() == before
    clock.advance(3600)
    await service.expire_due()
    report = await service.audit_report(guild)
    assert report.problems == ()
    moves = (await store.db.fetchone("SELECT COUNT(*) FROM ledger WHERE why = 'trade'"))[0]
    assert report.copies == 6 * 40 + 60 * 15 and report.ledger_rows == report.copies + moves
    done = (await store.db.fetchone("SELECT COUNT(*) FROM trades WHERE status = 'done'"))[0]
    assert done >= 20, done  # many trades went through, among many refusals
    credits = await store.db.fetchone("SELECT COUNT(*), COUNT(opened_at) FROM pack_credits")
    assert tuple(credits) == (60, 60)
    assert not await store.db.fetchall("SELECT * FROM copy_locks")
    serials = await store.db.fetchall(
        "SELECT card, serial, COUNT(*) FROM copies WHERE serial IS NOT NULL"
        " GROUP BY card, serial HAVING COUNT(*) > 1")
    assert serials == []
