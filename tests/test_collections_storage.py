"""The bank-like storage of Arcane Duel collections (storage/collections.py): every
ownership change whole or not at all, refusals that change nothing, locks held by one
thing at a time, print runs never exceeded, and an audit that replays the ledger —
under concurrency and with the writer killed mid-stream. Real SQLite, offline."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import signal
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage import Store
from storage.collections import (
    AlreadyClaimed,
    AnteClosed,
    BadRequest,
    CollectionRefusal,
    Locked,
    NoPack,
    NotOwned,
    NotParty,
    TooEarly,
    TooMany,
    TradeClosed,
    grant_pack_in,
)
from storage.errors import StorageError

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

G, G2 = 1, 2
ALICE, BOB, CARA = 10, 20, 30
RUNS = {"common": 1000, "uncommon": 300, "rare": 100}
TABLES = ("copies", "ledger", "print_runs", "copy_locks", "starter_claims", "pack_claims",
          "trades", "trade_copies", "antes", "ante_copies", "decks", "pack_credits",
          "trade_messages")
STARTER = [f"Card {n}" for n in range(10)]


def pack(seed: int, pool: int = 6) -> list[tuple[str, str]]:
    """15 pulls from small pools, so cards repeat and runs run out."""
    rng = random.Random(seed)
    return ([(f"Common {rng.randrange(pool)}", "common") for _ in range(11)]
            + [(f"Uncommon {rng.randrange(pool)}", "uncommon") for _ in range(3)]
            + [(f"Rare {rng.randrange(pool)}", "rare")])


async def snapshot(store: Store) -> dict[str, list[tuple]]:
    """Every row of every collection table (a refusal must leave them all as they were)."""
    return {table: sorted(tuple(row) for row in await store.db.fetchall(f"SELECT * FROM {table}"))
            for table in TABLES}


async def refused(store: Store, error: type[Exception], call) -> Exception:
    """Run ``call()``, expecting ``error``, and check it changed nothing."""
    before = await snapshot(store)
    with pytest.raises(error) as caught:
        await call()
    assert await snapshot(store) == before
    return caught.value


async def starters(store: Store, guild: int, *users: int) -> dict[int, list[int]]:
    """Each user's starter; their copy ids."""
    return {user: [c.id for c in await store.collections.claim_starter(
        guild, user, "starter", STARTER, now=100.0)] for user in users}


async def owners(store: Store, ids) -> dict[int, int]:
    rows = await store.db.fetchall(
        f"SELECT id, owner_id FROM copies WHERE id IN ({', '.join('?' * len(ids))})", tuple(ids))
    return {row[0]: row[1] for row in rows}


async def test_a_starter_is_claimed_once_per_server_with_its_deck(store):
    coll = store.collections
    copies = await coll.claim_starter(G, ALICE, "Ember", STARTER, now=5.0)
    assert [c.card for c in copies] == STARTER
    assert {(c.owner_id, c.edition, c.serial, c.got_how, c.lock) for c in copies} == {
        (ALICE, "unlimited", None, "starter", None)}
    assert (await coll.deck(G, ALICE, "Ember")).cards == tuple(STARTER)
    error = await refused(store, AlreadyClaimed,
                          lambda: coll.claim_starter(G, ALICE, "Tide", STARTER, now=6.0))
    assert error.seconds_left == 0
    await coll.claim_starter(G2, ALICE, "Tide", STARTER[:3], now=7.0)  # another economy
    assert sum(c.owned for c in (await coll.counts(G, ALICE)).values()) == 10
    assert await coll.copies_in_server(G, "Card 1") == 1
    assert await coll.audit(G) == [] and await coll.audit(G2) == []


async def test_packs_print_limited_serials_until_the_run_is_exhausted(store):
    coll = store.collections
    pulls = [("Drake", "rare")] * 3 + [("Imp", "common")] * 12
    copies = await coll.open_pack(G, ALICE, pulls, {"rare": 2, "common": 10}, now=1.0,
                                  pack_ref=7)
    assert len(copies) == 15
    drakes = [(c.edition, c.serial) for c in copies if c.card == "Drake"]
    assert drakes == [("limited", 1), ("limited", 2), ("unlimited", None)]
    imps = [c.serial for c in copies if c.card == "Imp"]
    assert imps == [*range(1, 11), None, None]
    run = await coll.print_run(G, "Drake")
    assert (run.size, run.printed, run.left) == (2, 2, 0)
    assert copies[0].label(run.size) == "Drake #1 of 2"
    # The run keeps its first size; another server has runs of its own.
    again = await coll.open_pack(G, BOB, [("Drake", "rare")], {"rare": 50}, now=2.0, pack_ref=8)
    assert again[0].edition == "unlimited"
    other = await coll.open_pack(G2, BOB, [("Drake", "rare")], {"rare": 50}, now=2.0)
    assert other[0].serial == 1
    rows = await store.db.fetchall("SELECT why, ref, from_owner FROM ledger WHERE guild_id = ?",
                                   (G,))
    assert Counter(tuple(r) for r in rows) == {("pack", 7, None): 15, ("pack", 8, None): 1}
    assert await coll.audit(G) == []


async def test_the_daily_pack_is_refused_with_the_time_left(store):
    coll = store.collections
    await coll.claim_daily_pack(G, ALICE, now=1000.0)
    error = await refused(store, AlreadyClaimed,
                          lambda: coll.claim_daily_pack(G, ALICE, now=1000.0 + 3600))
    assert error.seconds_left == pytest.approx(86400 - 3600)
    await coll.claim_daily_pack(G, BOB, now=1001.0)  # per person
    # Claimed and opened in one write: a refused claim opens nothing.
    await refused(store, AlreadyClaimed, lambda: coll.open_pack(
        G, ALICE, pack(1), RUNS, now=2000.0, daily_every=86400))
    opened = await coll.open_pack(G, ALICE, pack(1), RUNS, now=1000.0 + 86400, daily_every=86400)
    assert len(opened) == 15
    await coll.claim_daily_pack(G, ALICE, now=1000.0 + 86400 + 60, every_seconds=60)


async def test_a_trade_locks_gives_then_gets_and_swaps_once_both_confirm(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB)
    give, get = have[ALICE][:2], have[BOB][:1]
    trade = await coll.offer_trade(G, ALICE, BOB, give, get, now=1000.0)
    assert (trade.status, trade.give, trade.get) == ("open", tuple(give), tuple(get))
    locked = {c.id: c.lock for c in await coll.owned(G, ALICE) + await coll.owned(G, BOB)
              if c.lock}
    assert set(locked) == set(give)  # the receiver's copies only once they accept
    assert (await coll.counts(G, ALICE))["Card 0"].free == 0
    await refused(store, TradeClosed, lambda: coll.confirm_trade(trade.id, ALICE, now=1001.0))
    trade = await coll.accept_trade(trade.id, BOB, now=1001.0)
    assert (trade.status, trade.confirm_opens_at) == ("accepted", 1006.0)
    assert trade == await coll.accept_trade(trade.id, BOB, now=1002.0)  # a replayed click
    error = await refused(store, TooEarly, lambda: coll.confirm_trade(trade.id, ALICE, 1003.0))
    assert error.seconds_left == pytest.approx(3.0)
    await refused(store, NotParty, lambda: coll.confirm_trade(trade.id, CARA, 1006.0))
    first = await coll.confirm_trade(trade.id, ALICE, now=1006.0)
    assert (first.status, first.offerer_confirmed) == ("accepted", True)
    assert (await coll.confirm_trade(trade.id, ALICE, now=1007.0)) == first  # pressed twice
    done = await coll.confirm_trade(trade.id, BOB, now=1008.0)
    assert done.status == "done"
    assert await owners(store, give + get) == {give[0]: BOB, give[1]: BOB, get[0]: ALICE}
    assert not [c for c in await coll.owned(G, ALICE) + await coll.owned(G, BOB) if c.lock]
    moved = await store.db.fetchall("SELECT copy_id, from_owner, to_owner, ref FROM ledger"
                                    " WHERE why = 'trade' ORDER BY copy_id")
    assert [tuple(r) for r in moved] == [(give[0], ALICE, BOB, trade.id),
                                         (give[1], ALICE, BOB, trade.id),
                                         (get[0], BOB, ALICE, trade.id)]
    # Replays after the swap do nothing twice.
    before = await snapshot(store)
    for user in (ALICE, BOB, BOB):
        assert (await coll.confirm_trade(trade.id, user, now=1010.0)).status == "done"
    await refused(store, TradeClosed, lambda: coll.accept_trade(trade.id, BOB, now=1010.0))
    assert await snapshot(store) == before
    assert (await coll.owned(G, ALICE))[0].got_how in ("starter", "trade")
    assert await coll.audit(G) == []


async def test_concurrent_double_confirms_swap_once(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB)
    trade = await coll.offer_trade(G, ALICE, BOB, have[ALICE][:3], have[BOB][:3], now=0.0)
    await asyncio.gather(*[coll.accept_trade(trade.id, BOB, now=1.0) for _ in range(5)])
    results = await asyncio.gather(*[coll.confirm_trade(trade.id, user, now=10.0)
                                     for user in (ALICE, BOB) * 5])
    assert results[-1].status == "done"
    count = await store.db.fetchone("SELECT COUNT(*) FROM ledger WHERE why = 'trade'")
    assert count[0] == 6
    assert await coll.audit(G) == []


async def test_offers_that_cannot_be_are_refused_and_change_nothing(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB, CARA)
    a, b = have[ALICE], have[BOB]
    await coll.offer_trade(G, ALICE, CARA, a[:1], [], now=0.0)
    cases = [
        (NotOwned, (ALICE, BOB, b[:1], [])),  # giving what is not yours
        (NotOwned, (ALICE, BOB, a[1:2], a[2:3])),  # asking for what they do not own
        (Locked, (ALICE, BOB, a[:1], b[:1])),  # already offered to Cara
        (BadRequest, (ALICE, ALICE, a[1:2], [])),
        (BadRequest, (ALICE, BOB, [], [])),
        (BadRequest, (ALICE, BOB, [a[1], a[1]], [])),
        (NotOwned, (ALICE, BOB, [999_999], [])),
    ]
    for error, (offerer, receiver, give, get) in cases:
        await refused(store, error, lambda o=offerer, r=receiver, g=give, t=get:
                      coll.offer_trade(G, o, r, g, t, now=1.0))
    await refused(store, NotOwned, lambda: coll.offer_trade(G2, ALICE, BOB, a[1:2], [], now=1.0))


async def test_acceptance_rechecks_the_receivers_copies(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB, CARA)
    a, b = have[ALICE], have[BOB]
    staked = await coll.offer_trade(G, ALICE, BOB, a[:1], b[:1], now=0.0)
    await coll.stake_ante(G, 77, [(BOB, b[0])], now=0.0)  # Bob's copy is now held elsewhere
    await refused(store, Locked, lambda: coll.accept_trade(staked.id, BOB, now=1.0))
    await refused(store, NotParty, lambda: coll.accept_trade(staked.id, ALICE, now=1.0))
    gone = await coll.offer_trade(G, ALICE, BOB, a[1:2], b[1:2], now=0.0)
    gift = await coll.offer_trade(G, BOB, CARA, b[1:2], [], now=0.0)
    await coll.accept_trade(gift.id, CARA, now=0.0)
    await coll.confirm_trade(gift.id, BOB, now=5.0)
    await coll.confirm_trade(gift.id, CARA, now=5.0)  # b[1] went to Cara meanwhile
    await refused(store, NotOwned, lambda: coll.accept_trade(gone.id, BOB, now=6.0))
    late = await coll.offer_trade(G, ALICE, BOB, a[2:3], [], now=0.0, expires_after=60)
    await refused(store, TradeClosed, lambda: coll.accept_trade(late.id, BOB, now=60.0))
    assert await coll.audit(G) == []


async def test_decline_cancel_and_expiry_unlock(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB)
    a, b = have[ALICE], have[BOB]
    declined = await coll.offer_trade(G, ALICE, BOB, a[:1], b[:1], now=0.0)
    await refused(store, NotParty, lambda: coll.decline_trade(declined.id, ALICE, now=1.0))
    assert (await coll.decline_trade(declined.id, BOB, now=1.0)).status == "declined"
    assert (await coll.decline_trade(declined.id, BOB, now=2.0)).status == "declined"  # replay
    await refused(store, TradeClosed, lambda: coll.cancel_trade(declined.id, ALICE, now=2.0))
    cancelled = await coll.offer_trade(G, ALICE, BOB, a[:1], b[:1], now=2.0)
    await coll.accept_trade(cancelled.id, BOB, now=2.0)
    await refused(store, NotParty, lambda: coll.cancel_trade(cancelled.id, CARA, now=3.0))
    assert (await coll.cancel_trade(cancelled.id, BOB, now=3.0)).status == "cancelled"
    expiring = [await coll.offer_trade(G, ALICE, BOB, a[n:n + 1], b[n:n + 1], now=10.0,
                                       expires_after=100) for n in range(1, 4)]
    await coll.accept_trade(expiring[0].id, BOB, now=99.0)  # accepted trades expire too
    assert await coll.expire_trades(now=100.0) == []
    # Accepting moved the first one's expiry to its confirm window plus a grace.
    assert await coll.expire_trades(now=110.0) == [t.id for t in expiring[1:]]
    assert await coll.expire_trades(now=1000.0) == [expiring[0].id]
    assert not [c for c in await coll.owned(G, ALICE) + await coll.owned(G, BOB) if c.lock]
    await refused(store, TradeClosed, lambda: coll.confirm_trade(expiring[0].id, BOB, 1001.0))
    # A lapsed offer no sweep has closed yet gives way to a new offer of its copies.
    lapsed = await coll.offer_trade(G, ALICE, BOB, a[5:6], [], now=2000.0, expires_after=10)
    await refused(store, Locked, lambda: coll.offer_trade(G, ALICE, CARA, a[5:6], [], 2009.0))
    await coll.offer_trade(G, ALICE, CARA, a[5:6], [], now=2010.0)
    assert (await coll.trade(lapsed.id)).status == "expired"
    assert await coll.audit(G) == []


async def test_ante_moves_to_the_winner_and_a_draw_moves_nothing(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB)
    a, b = have[ALICE], have[BOB]
    await coll.stake_ante(G, 1, [(ALICE, a[0]), (BOB, b[0])], now=1.0)
    await refused(store, Locked, lambda: coll.stake_ante(G, 2, [(ALICE, a[0])], now=1.0))
    await refused(store, Locked, lambda: coll.offer_trade(G, ALICE, BOB, a[:1], [], now=1.0))
    await refused(store, NotOwned, lambda: coll.stake_ante(G, 2, [(ALICE, b[1])], now=1.0))
    await refused(store, AnteClosed, lambda: coll.stake_ante(G, 1, [(ALICE, a[1])], now=1.0))
    await refused(store, BadRequest, lambda: coll.settle_ante(1, CARA, now=2.0))
    assert await coll.settle_ante(1, BOB, now=2.0) == [a[0]]
    assert await owners(store, [a[0], b[0]]) == {a[0]: BOB, b[0]: BOB}
    await refused(store, AnteClosed, lambda: coll.settle_ante(1, BOB, now=3.0))
    await coll.stake_ante(G, 2, [(ALICE, a[1]), (BOB, b[1])], now=4.0)
    assert await coll.settle_ante(2, None, now=5.0) == []
    assert await owners(store, [a[1], b[1]]) == {a[1]: ALICE, b[1]: BOB}
    assert not [c for c in await coll.owned(G, ALICE) + await coll.owned(G, BOB) if c.lock]
    rows = await store.db.fetchall("SELECT copy_id, from_owner, to_owner, ref FROM ledger"
                                   " WHERE why = 'ante'")
    assert [tuple(r) for r in rows] == [(a[0], ALICE, BOB, 1)]
    assert await coll.audit(G) == []


async def test_decks_are_saved_listed_replaced_and_deleted(store):
    coll = store.collections
    await coll.save_deck(G, ALICE, "burn", ["Imp"] * 40, now=1.0)
    await coll.save_deck(G, ALICE, "aggro", ["Drake", "Imp"], now=2.0)
    await coll.save_deck(G, ALICE, "burn", ["Drake"], now=3.0)
    assert [d.name for d in await coll.decks(G, ALICE)] == ["aggro", "burn"]
    assert (await coll.deck(G, ALICE, "burn")).cards == ("Drake",)
    assert await coll.deck(G, BOB, "burn") is None and await coll.decks(G2, ALICE) == []
    assert await coll.delete_deck(G, ALICE, "burn") is True
    assert await coll.delete_deck(G, ALICE, "burn") is False


async def test_the_ledger_and_copies_cannot_be_rewritten(store):
    have = await starters(store, G, ALICE)
    for sql in ("DELETE FROM copies", "UPDATE ledger SET to_owner = 5", "DELETE FROM ledger",
                "UPDATE copies SET serial = 3", "UPDATE copies SET card = 'X'"):
        with pytest.raises(Exception, match=r"never|append-only"):
            await store.db.execute(sql)
    with pytest.raises(Exception, match=r"UNIQUE|constraint"):  # one lock per copy
        for ref in (1, 2):
            await store.db.execute("INSERT INTO copy_locks VALUES (?, 'ante', ?, 0)",
                                   (have[ALICE][0], ref))


async def test_the_audit_finds_planted_inconsistencies(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB)
    trade = await coll.offer_trade(G, ALICE, BOB, have[ALICE][:1], [], now=0.0)
    await coll.cancel_trade(trade.id, ALICE, now=1.0)
    assert await coll.audit(G) == []
    # Bypassing the repository, in this test only: an owner changed with no ledger row,
    # a lock left for a closed trade, a limited copy beyond its run.
    await store.db.execute("UPDATE copies SET owner_id = ? WHERE id = ?", (BOB, have[ALICE][3]))
    await store.db.execute("INSERT INTO copy_locks VALUES (?, 'trade', ?, 0)",
                           (have[ALICE][0], trade.id))
    problems = [str(p) for p in await coll.audit(G)]
    assert any(f"copy {have[ALICE][3]}: owned by {BOB}, but the ledger says {ALICE}" == p
               for p in problems), problems
    assert any(f"copy {have[ALICE][0]}: locked by trade {trade.id}, which is cancelled" == p
               for p in problems), problems
    assert len(problems) == 2
    assert await coll.audit(G2) == []


async def test_given_packs_open_first_each_once_then_the_daily_pack(store):
    coll = store.collections
    await refused(store, NoPack, lambda: coll.open_next_pack(G, ALICE, pack(1), RUNS, now=1.0,
                                                             daily_every=None))
    assert await coll.give_packs(G, ALICE, 2, giver=CARA, now=2.0) == 2
    await refused(store, TooMany, lambda: coll.give_packs(G, ALICE, 3, CARA, 3.0, most_waiting=4))
    await refused(store, BadRequest, lambda: coll.give_packs(G, ALICE, 0, CARA, 3.0))
    waiting = await coll.packs_waiting(G, ALICE)
    assert [(p.why, p.ref, p.opened_at) for p in waiting] == [("prize", CARA, None)] * 2
    # A given pack first, even with the daily pack due: the daily claim is left alone.
    first = await coll.open_next_pack(G, ALICE, pack(1), RUNS, now=10.0, daily_every=86400)
    assert first.credit.id == waiting[0].id and first.credit.opened_at == 10.0
    assert first.waiting == 1 and len(first.copies) == 15
    assert await coll.last_daily(G, ALICE) is None
    rows = await store.db.fetchall("SELECT DISTINCT ref FROM ledger WHERE why = 'pack'")
    assert [r[0] for r in rows] == [waiting[0].id]  # the ledger names the pack opened
    # Two openings at once take the one pack left and the daily claim, never one twice.
    both = await asyncio.gather(*(coll.open_next_pack(G, ALICE, pack(n), RUNS, now=11.0,
                                                      daily_every=86400) for n in (2, 3)))
    assert sorted(o.credit is None for o in both) == [False, True]
    assert await coll.last_daily(G, ALICE) == 11.0
    await refused(store, AlreadyClaimed, lambda: coll.open_next_pack(
        G, ALICE, pack(4), RUNS, now=12.0, daily_every=86400))
    await refused(store, NoPack, lambda: coll.open_next_pack(G, ALICE, pack(4), RUNS, now=12.0,
                                                             daily_every=None))
    assert await coll.packs_waiting(G, ALICE) == []
    assert await coll.packs_waiting(G2, ALICE) == []
    assert await coll.books(G) == (45, 45) and await coll.audit(G) == []


async def test_a_win_gives_one_pack_however_often_it_is_written(store):
    await store.db.write(_Grant(G, ALICE, "win", 55))
    await store.db.write(_Grant(G, ALICE, "win", 55))
    assert [(p.why, p.ref) for p in await store.collections.packs_waiting(G, ALICE)] == [
        ("win", 55)]


@dataclass(frozen=True)
class _Grant:
    guild: int
    user: int
    why: str
    ref: int

    def __call__(self, conn):
        return grant_pack_in(conn, self.guild, self.user, self.why, self.ref, 1.0)


async def test_offer_messages_are_remembered_and_found_behind_their_trades(store):
    coll = store.collections
    have = await starters(store, G, ALICE, BOB)
    trade = await coll.offer_trade(G, ALICE, BOB, have[ALICE][:1], [], now=0.0,
                                   expires_after=10)
    assert await coll.trade_message(trade.id) is None
    await coll.show_trade(trade.id, 700, 800, "open:00", settled=False)
    shown = await coll.trade_message(trade.id)
    assert (shown.channel_id, shown.message_id, shown.shown) == (700, 800, "open:00")
    [(message, stored)] = await coll.unsettled_messages()
    assert message == shown and stored.status == "open"
    await coll.expire_trades(now=20.0)
    [(_, stored)] = await coll.unsettled_messages()
    assert stored.status == "expired"
    await coll.show_trade(trade.id, 700, 800, "expired:00", settled=True)
    assert await coll.unsettled_messages() == []
    assert await coll.live_trades(G, ALICE) == []
    live = await coll.offer_trade(G, BOB, ALICE, have[BOB][:2], have[ALICE][:1], now=30.0)
    assert [t.id for t in await coll.live_trades(G, ALICE)] == [live.id]
    assert [t.id for t in await coll.live_trades(G, BOB)] == [live.id]
    assert await coll.live_trades(G2, BOB) == []
    copies = await coll.copies([*live.give, 999_999])
    assert [c.id for c in copies] == sorted(live.give) and all(c.lock for c in copies)


def test_refusals_cross_the_process_boundary():
    for error in (NotOwned("n"), Locked("l"), TradeClosed("t"), AlreadyClaimed("a", 5.0),
                  TooEarly("e", 2.5), AnteClosed("x"), BadRequest("b"), NotParty("p"),
                  NoPack("none"), TooMany("m", 7)):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
        assert getattr(back, "seconds_left", None) == getattr(error, "seconds_left", None)
        assert getattr(back, "waiting", None) == getattr(error, "waiting", None)
        assert isinstance(back, CollectionRefusal)


# -- under contention ---------------------------------------------------------------------
PEOPLE = list(range(100, 108))


async def trade_life(store: Store, rng: random.Random, now: float) -> str:
    """Offer a few of the offerer's copies for one of the receiver's (as read before the
    other trades moved them, and now and then someone else's), accept, confirm twice
    each; refusals are expected. What happened to it."""
    coll = store.collections
    offerer, receiver = rng.sample(PEOPLE, 2)
    theirs = [c.id for c in await coll.owned(G, offerer)] or [1]
    ours = [c.id for c in await coll.owned(G, receiver)] or [1]
    give = rng.sample(theirs, min(len(theirs), rng.randint(1, 2)))
    get = rng.sample(ours, 1) if rng.random() < 0.7 else []
    if rng.random() < 0.1:
        give = get + give  # not the offerer's to give
    try:
        trade = await coll.offer_trade(G, offerer, receiver, give, get, now=now)
        await coll.accept_trade(trade.id, receiver, now=now)
        for user in (offerer, receiver, offerer, receiver):
            trade = await coll.confirm_trade(trade.id, user, now=now + 5)
        return trade.status
    except StorageError as error:
        return type(error).__name__


async def pack_opening(store: Store, seed: int, ref: int) -> str:
    try:
        await store.collections.open_pack(G, PEOPLE[seed % len(PEOPLE)], pack(seed, pool=3),
                                          {"common": 20, "uncommon": 6, "rare": 2}, now=seed,
                                          pack_ref=ref)
        return "opened"
    except StorageError as error:
        return type(error).__name__


async def ante_round(store: Store, rng: random.Random, match: int) -> str:
    coll = store.collections
    one, two = rng.sample(PEOPLE, 2)
    try:
        stakes = []
        for person in (one, two):
            copies = [c for c in await coll.owned(G, person) if c.lock is None]
            stakes.append((person, rng.choice(copies).id))
        await coll.stake_ante(G, match, stakes, now=1.0)
        await asyncio.sleep(0)
        await coll.settle_ante(match, rng.choice([one, two, None]), now=2.0)
        return "settled"
    except (StorageError, IndexError) as error:
        return type(error).__name__


async def check_the_books(store: Store, created: int | None = None) -> None:
    """No copy duplicated or lost, one owner each, the ledger replays, runs within size,
    every lock held by a live trade or ante and every live one's copies locked."""
    coll = store.collections
    assert [str(p) for p in await coll.audit(G)] == []
    copies = await store.db.fetchall("SELECT id, owner_id, card, serial FROM copies")
    creations = await store.db.fetchone("SELECT COUNT(*) FROM ledger WHERE from_owner IS NULL")
    assert len(copies) == creations[0] == len({row[0] for row in copies})
    if created is not None:
        assert len(copies) == created
    held = sum([len(await coll.owned(G, person)) for person in PEOPLE])
    assert held == len(copies)
    serials = [(row[2], row[3]) for row in copies if row[3] is not None]
    assert len(serials) == len(set(serials))
    for run in await store.db.fetchall("SELECT card, size, printed FROM print_runs"):
        assert run[2] <= run[1]
        assert sorted(s for card, s in serials if card == run[0]) == list(range(1, run[2] + 1))
    # Every trade and pack whole or not at all.
    for trade in await store.db.fetchall(
            "SELECT t.status, (SELECT COUNT(*) FROM trade_copies WHERE trade_id = t.id),"
            " (SELECT COUNT(*) FROM trade_copies WHERE trade_id = t.id AND side = 'give'),"
            " (SELECT COUNT(*) FROM ledger WHERE why = 'trade' AND ref = t.id),"
            " (SELECT COUNT(*) FROM copy_locks WHERE kind = 'trade' AND ref = t.id)"
            " FROM trades t"):
        status, size, gives, moved, locks = trade
        assert moved == (size if status == "done" else 0)
        assert locks == {"open": gives, "accepted": size}.get(status, 0)
    for ref, count in await store.db.fetchall(
            "SELECT ref, COUNT(*) FROM ledger WHERE why = 'pack' GROUP BY ref"):
        assert count == 15, (ref, count)


async def test_hundreds_of_concurrent_trades_packs_and_antes_keep_the_books(store):
    rng = random.Random(17)
    await asyncio.gather(*[store.collections.claim_starter(G, p, "s", STARTER, now=0.0)
                           for p in PEOPLE])
    outcomes: Counter[str] = Counter()
    for round_ in range(3):
        jobs = ([trade_life(store, rng, 100.0 * round_) for _ in range(100)]
                + [pack_opening(store, 30 * round_ + n, 30 * round_ + n) for n in range(30)]
                + [ante_round(store, rng, 1000 * round_ + n) for n in range(30)])
        rng.shuffle(jobs)
        outcomes.update(await asyncio.gather(*jobs))
        await check_the_books(store, created=len(PEOPLE) * len(STARTER) + 15 * 30 * (round_ + 1))
    assert outcomes["done"] > 100 and outcomes["settled"] > 20 and outcomes["opened"] == 90
    assert outcomes["NotOwned"] + outcomes["Locked"] > 20, outcomes
    assert outcomes["TradeClosed"] == 0, outcomes  # each saw its own writes
    # Every card with a limited run printed it out and gave unlimited copies after.
    rare = await store.collections.print_run(G, "Rare 0")
    assert rare.left == 0


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGKILL")
async def test_a_writer_killed_mid_stream_leaves_every_change_whole_or_absent(tmp_path: Path):
    path = tmp_path / "croupier.sqlite3"
    store = await Store.open(path)
    rng = random.Random(3)
    try:
        await asyncio.gather(*[store.collections.claim_starter(G, p, "s", STARTER, now=0.0)
                               for p in PEOPLE])
        stopped = 0
        for kill in range(4):
            killed = asyncio.Event()

            async def killer(killed: asyncio.Event = killed) -> None:
                """SIGKILL the writer once the ledger has grown by a random amount."""
                async def rows() -> int:
                    return (await store.db.fetchall("SELECT COUNT(*) FROM ledger"))[0][0]

                enough = await rows() + rng.randint(10, 250)
                while await rows() < enough or store.db.writer_pid is None:
                    await asyncio.sleep(0.002)
                os.kill(store.db.writer_pid, signal.SIGKILL)
                killed.set()

            jobs = ([trade_life(store, rng, 10.0 * kill) for _ in range(80)]
                    + [pack_opening(store, 100 * kill + n, 100 * kill + n) for n in range(20)]
                    + [ante_round(store, rng, 5000 + 100 * kill + n) for n in range(10)])
            rng.shuffle(jobs)
            outcomes = Counter(await asyncio.gather(killer(), *jobs))
            assert killed.is_set()
            stopped += outcomes["WriterStopped"]
        assert stopped > 0  # some writes were cut short (the rest committed whole)
    finally:
        await store.close()
    reopened = await Store.open(path)
    try:
        await check_the_books(reopened)
        # The store goes on after the crash: stale locks can still be expired away.
        await reopened.collections.expire_trades(now=1e9)
        await check_the_books(reopened)
    finally:
        await reopened.close()


# -- deck names ignore case -------------------------------------------------------------------
async def test_deck_names_are_one_per_owner_whatever_their_case(store):
    repo = store.collections
    await repo.save_deck(G, ALICE, "Burn", ("Card 1",) * 40, 1.0)
    await repo.save_deck(G, ALICE, "burn", ("Card 2",) * 40, 2.0)  # the same deck, replaced
    await repo.save_deck(G, BOB, "BURN", ("Card 3",) * 40, 3.0)  # another owner's own
    mine = await repo.decks(G, ALICE)
    assert [(d.name, d.cards[0]) for d in mine] == [("burn", "Card 2")]
    found = await repo.deck(G, ALICE, "BuRn")
    assert found is not None and found.name == "burn"
    assert await repo.delete_deck(G, ALICE, "BURN")
    assert await repo.decks(G, ALICE) == []
    assert [d.name for d in await repo.decks(G, BOB)] == ["BURN"]


async def test_migration_10_renames_decks_whose_names_differ_only_in_case(tmp_path):
    """Decks saved before names ignored case keep every card: the newest of a clash keeps
    its name, the others get a number no deck has (a name one can type again)."""
    from bot.duel.collections import deck_name
    from storage.db import Database, shipped_migrations

    path = tmp_path / "old.sqlite3"
    before = [m for m in shipped_migrations() if m.version < 10]
    db = await Database.open(path, before)
    rows = [(G, ALICE, "Burn", 1.0), (G, ALICE, "burn", 3.0), (G, ALICE, "BURN", 2.0),
            (G, ALICE, "burn 1", 0.5), (G, ALICE, "x" * 32, 1.0), (G, ALICE, "X" * 32, 2.0),
            (G, BOB, "Burn", 1.0), (G2, ALICE, "BURN", 1.0), (G, ALICE, "Other", 1.0)]
    for guild, owner, name, at in rows:
        await db.execute("INSERT INTO decks (guild_id, owner_id, name, cards, updated_at)"
                         " VALUES (?, ?, ?, ?, ?)", (guild, owner, name, f'["{name}"]', at))
    await db.close()
    db = await Database.open(path)
    try:
        after = await db.fetchall("SELECT guild_id, owner_id, name, cards FROM decks")
    finally:
        await db.close()
    assert len(after) == len(rows)  # nothing lost
    assert sorted(row["cards"] for row in after) == sorted(f'["{r[2]}"]' for r in rows)
    names = {(row["cards"], row["guild_id"], row["owner_id"]): row["name"] for row in after}
    assert names[('["burn"]', G, ALICE)] == "burn"  # the newest keeps its name
    assert names[('["Other"]', G, ALICE)] == "Other"
    assert names[('["Burn"]', G, BOB)] == "Burn" and names[('["BURN"]', G2, ALICE)] == "BURN"
    keys = [(row["guild_id"], row["owner_id"], row["name"].lower()) for row in after]
    assert len(set(keys)) == len(keys)
    for row in after:
        assert deck_name(row["name"]) == row["name"]  # each may be typed again
