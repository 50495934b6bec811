"""A stand-in for the bot, for tests/test_collections_kill.py to SIGKILL at random moments.

Run from the repository root with the bot's interpreter::

    python -m tests.collections_worker <db path> <seed> [--steps N]

It opens the :class:`~storage.Store` on the file and drives the collections service
(:class:`~bot.duel.collections.CollectionService`) with an endless concurrent workload, as
many players clicking at once would: starters claimed, daily and prize packs opened (and,
where the service has them, packs given unopened and opened later), trades
offered over the same few cards (so many are refused), accepted, confirmed by both sides
at once (some twice), declined, cancelled or left to lapse, antes staked and paid out, and
the trades a previous run left open or accepted taken up again. After every completed step
it prints one JSON line on standard output (flushed): what it did and what storage
answered, so the test can choose a moment to kill it and can check afterwards that every
step it was told of is in the file. With ``--steps N`` it stops by itself after about ``N``
steps and closes the store, as a bot shut down politely would.

Confirm windows open at once (``confirm_seconds=0``) and the daily pack is due every few
tenths of a second, so that every kind of write happens within a test's few seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import time
from collections.abc import Awaitable, Callable, Sequence

import bot.duel.collections
from bot.duel.collections import CollectionError, CollectionService, TradeView
from rules.duel.decks import STARTERS
from storage import Store

GUILDS = (1, 2)
"""Two servers: each has its own economy, print runs and serials."""
PEOPLE = tuple(range(100, 108))
RUN_SIZES = {"rare": 3, "uncommon": 4, "common": 5}
"""Print runs small enough to run out within a test, so packs give unlimited copies too."""
ACTORS = 10
"""Players acting at once: enough for many writes in flight in each group commit."""
DAILY_SECONDS = 0.3
OFFER_SECONDS = 1.5
"""Offers left unanswered lapse quickly, so the sweep and lapsed locks are exercised."""
MATCHES_PER_SEED = 1_000_000
"""Match ids are ``seed * MATCHES_PER_SEED + n``: unique across runs with distinct seeds."""
PackGiver = getattr(bot.duel.collections, "PackGiver", None)
"""Packs given unopened and opened later (``give_packs``, ``open_pack``), where the
service has them: the workload gives and opens them too."""


class UniqueClock:
    """The wall clock, never giving the same reading twice.

    The service opens packs without a pack reference, so the copies of one pack are told
    apart from another's by their owner and creation time: two packs the same person
    opens must not share a time. A step of a microsecond is still several ulps at
    today's epoch seconds, so each reading is a distinct float.
    """

    def __init__(self) -> None:
        self._last = 0.0

    def now(self) -> float:
        """Seconds since the epoch, strictly later than the last reading."""
        self._last = max(time.time(), self._last + 1e-6)
        return self._last


class Workload:
    """The players of both servers, acting concurrently through one service."""

    def __init__(self, store: Store, seed: int, steps: int | None) -> None:
        self.store = store
        self.seed = seed
        packs = random.Random(seed ^ 0x5EED)
        # One seeded generator for every pack: each pack draws a fresh seed from it.
        self.service = CollectionService(
            store, UniqueClock(), rng_factory=lambda: packs, run_sizes=RUN_SIZES,
            daily_seconds=DAILY_SECONDS, offer_seconds=OFFER_SECONDS, confirm_seconds=0.0)
        self.steps = steps
        self.done = 0
        self.stop = asyncio.Event()
        self.matches = 0
        self.claimed: set[tuple[int, int]] = set()
        """(server, person) known to hold a starter: no need to try again."""

    # -- reporting
    def report(self, step: str, **fields: object) -> None:
        """One line per completed step, flushed at once: the test counts them to pick
        a moment to kill, and checks each one it read is in the file afterwards."""
        self.done += 1
        sys.stdout.write(json.dumps({"n": self.done, "step": step, **fields}) + "\n")
        sys.stdout.flush()
        if self.steps is not None and self.done >= self.steps:
            self.stop.set()

    async def attempt(self, what: str, call: Awaitable[object]) -> object | None:
        """``await call``; a refusal the players would be shown is reported and gives
        ``None`` (refusals are expected: the workload races on purpose)."""
        try:
            return await call
        except CollectionError as exc:
            self.report("refused", what=what, why=type(exc).__name__)
            return None

    # -- the players
    async def run(self, rng: random.Random) -> None:
        """Take up what a previous run left, then act until told to stop."""
        actors = [self.actor(random.Random(rng.getrandbits(64))) for _ in range(ACTORS)]
        await asyncio.gather(self.resume(random.Random(rng.getrandbits(64))),
                             self.sweep(), *actors)

    async def actor(self, rng: random.Random) -> None:
        """One player's clicks, one action after another."""
        actions: Sequence[tuple[Callable[[random.Random], Awaitable[None]], int]] = (
            (self.starter, 2), (self.pack, 3), (self.trade, 8), (self.ante, 2))
        while not self.stop.is_set():
            action = rng.choices([a for a, _ in actions], [w for _, w in actions])[0]
            await action(rng)
            await pause(rng)

    async def starter(self, rng: random.Random) -> None:
        """Someone claims a starter (refused if they already have one here)."""
        guild, user = rng.choice(GUILDS), rng.choice(PEOPLE)
        if (guild, user) in self.claimed and rng.random() < 0.9:
            return  # now and then ask again anyway: the second claim must change nothing
        deck = rng.choice(list(STARTERS))
        claimed = await self.attempt("starter", self.service.claim_starter(guild, user, deck))
        self.claimed.add((guild, user))
        if claimed is not None:
            self.report("starter", guild=guild, user=user, deck=deck,
                        copies=[c.id for c in claimed.copies])

    async def pack(self, rng: random.Random) -> None:
        """A daily pack claimed and opened, or a prize pack opened at once; where the
        service has them, packs also given unopened, and the next one opened."""
        guild, user = rng.choice(GUILDS), rng.choice(PEOPLE)
        roll = rng.random()
        if PackGiver is not None and roll < 0.25:
            count = rng.randint(1, 3)
            waiting = await self.attempt("give", self.service.give_packs(
                guild, PackGiver(PEOPLE[0], True), user, count))
            if waiting is not None:
                self.report("give", guild=guild, user=user, count=count, waiting=waiting)
            return
        if PackGiver is not None and roll < 0.5:
            how, call = "next", self.service.open_pack(guild, user)
        elif roll < 0.75:
            how, call = "daily", self.service.open_daily_pack(guild, user)
        else:
            how, call = "prize", self.service.give_pack(guild, PEOPLE[0], user)
        opened = await self.attempt("pack", call)
        if opened is not None:
            self.report("pack", guild=guild, user=user, how=how,
                        source=getattr(opened, "source", None),
                        copies=[c.id for c in opened.copies])

    async def free_cards(self, guild: int, user: int, rng: random.Random, most: int) -> str:
        """A few of ``user``'s cards with free copies, as a trade's card list ("2 X, 1 Y")."""
        page = await self.service.collection(guild, user, user, per_page=50)
        rows = [row for row in page.rows if row.free]
        picked = rng.sample(rows, min(len(rows), rng.randint(0, most)))
        # Asking for one more copy than is free now and then makes the offer's refusal.
        return ", ".join(f"{min(row.free + (rng.random() < 0.05), rng.randint(1, 2))} {row.card}"
                         for row in picked)

    async def trade(self, rng: random.Random) -> None:
        """An offer over a few cards, then (mostly) acceptance and both confirmations."""
        guild = rng.choice(GUILDS)
        offerer, receiver = rng.sample(PEOPLE, 2)
        give = await self.free_cards(guild, offerer, rng, 3)
        get = await self.free_cards(guild, receiver, rng, 2)
        if not give and not get:
            return
        offered = await self.attempt("offer", self.service.offer(guild, offerer, receiver,
                                                                 give, get))
        if not isinstance(offered, TradeView):
            return
        self.report("offer", guild=guild, trade=offered.id, offerer=offerer, receiver=receiver,
                    give=[c.id for c in offered.give], get=[c.id for c in offered.get])
        await pause(rng)
        await self.carry_on(offered, rng)

    async def carry_on(self, trade: TradeView, rng: random.Random) -> None:
        """Whatever comes next for a trade: decline, cancel, lapse, accept, confirm."""
        if trade.status == "open":
            roll = rng.random()
            if roll < 0.08:
                await self.close(trade, "decline", trade.receiver)
                return
            if roll < 0.16:
                await self.close(trade, "cancel", rng.choice((trade.offerer, trade.receiver)))
                return
            if roll < 0.2:
                return  # left unanswered: it lapses
            accepted = await self.attempt("accept", self.service.accept(trade.id, trade.receiver))
            if not isinstance(accepted, TradeView):
                return
            self.report("accept", trade=trade.id)
            trade = accepted
            await pause(rng)
        if trade.status != "accepted":
            return
        roll = rng.random()
        if roll < 0.06:
            await self.close(trade, "cancel", rng.choice((trade.offerer, trade.receiver)))
            return
        if roll < 0.1:
            return  # accepted, never confirmed: its locks stay until it expires
        # Both press Confirm at once, some twice: only one swap may come of it.
        both = [trade.offerer, trade.receiver]
        presses = [*both, *rng.sample(both, rng.randint(0, 2))]
        rng.shuffle(presses)
        results = await asyncio.gather(
            *[self.attempt("confirm", self.service.confirm(trade.id, user)) for user in presses])
        statuses = {r.status for r in results if isinstance(r, TradeView)}
        if statuses:
            self.report("confirm", trade=trade.id, status="done" if "done" in statuses
                        else statuses.pop())

    async def close(self, trade: TradeView, verb: str, user: int) -> None:
        """Decline or cancel."""
        call = (self.service.decline if verb == "decline" else self.service.cancel)(trade.id, user)
        closed = await self.attempt(verb, call)
        if isinstance(closed, TradeView):
            self.report(verb, trade=trade.id, status=closed.status)

    async def ante(self, rng: random.Random) -> None:
        """Two players stake a card each for a duel; most duels end and pay out."""
        guild = rng.choice(GUILDS)
        players = rng.sample(PEOPLE, 2)
        seats: dict[int, tuple[int, str]] = {}
        for seat, user in enumerate(players):
            page = await self.service.collection(guild, user, user, per_page=50)
            cards = [row.card for row in page.rows if row.free]
            if not cards:
                return
            seats[seat] = (user, rng.choice(cards))
        self.matches += 1
        match = self.seed * MATCHES_PER_SEED + self.matches
        staked = await self.attempt("stake", self.service.stake_ante(guild, match, seats))
        if staked is None:
            return
        self.report("stake", guild=guild, match=match,
                    copies={str(seat): view.id for seat, view in staked.copies.items()})
        await pause(rng)
        if rng.random() < 0.15:
            return  # the duel goes on (or the bot dies mid-duel): the stake stays locked
        winner = rng.choice([*players, None])
        settled = await self.attempt("settle", self.service.settle_ante(guild, match, winner))
        if settled is not None:
            self.report("settle", match=match, winner=winner,
                        moved=[view.id for view in settled.moved])

    async def resume(self, rng: random.Random) -> None:
        """Take up the trades a previous run left open or accepted (its confirmations
        may have been cut short by the kill), all at once, by trade id."""
        live = []
        trade_id = 1
        # Trade ids count up from 1 without gaps: the table's AUTOINCREMENT, rolled
        # back with a refused offer.
        while (trade := await self.store.collections.trade(trade_id)) is not None:
            if trade.status in ("open", "accepted"):
                live.append(trade_id)
            trade_id += 1
        self.report("resume", live=live)
        views = []
        for trade_id in live:
            trade = await self.store.collections.trade(trade_id)
            if trade is not None:  # what carry_on needs of it: who, and how far it got
                views.append(TradeView(
                    trade.id, trade.offerer_id, trade.receiver_id, trade.status, (), (),
                    trade.expires_at, trade.confirm_opens_at, trade.offerer_confirmed,
                    trade.receiver_confirmed))
        await asyncio.gather(*[self.carry_on(view, random.Random(rng.getrandbits(64)))
                               for view in views])

    async def sweep(self) -> None:
        """Expire lapsed trades now and then, as the bot's periodic task does."""
        while not self.stop.is_set():
            expired = await self.service.expire_due()
            if expired:
                self.report("expire", trades=expired)
            with contextlib.suppress(TimeoutError):  # the stop, or the next sweep
                await asyncio.wait_for(self.stop.wait(), 0.2)


async def pause(rng: random.Random) -> None:
    """A player's moment between clicks: lets other players' writes interleave."""
    await asyncio.sleep(rng.random() * 0.004)


async def main(path: str, seed: int, steps: int | None) -> None:
    """Open the store, run the workload (forever, or ``steps`` steps), close the store."""
    store = await Store.open(path)
    try:
        await Workload(store, seed, steps).run(random.Random(seed))
    finally:
        await store.close()


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line: the file, the seed, and optionally when to stop."""
    parser = argparse.ArgumentParser(prog="python -m tests.collections_worker",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("path")
    parser.add_argument("seed", type=int)
    parser.add_argument("--steps", type=int, default=None)
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse(sys.argv[1:])
    asyncio.run(main(args.path, args.seed, args.steps))
