"""Arcane Duel collections under contention: pack openings, trades and ante payouts per
second through :class:`~bot.duel.collections.CollectionService`, with the books checked
after each.

The collections spec (``../shared/specs/collections.md``) asks that hundreds of
concurrent trades, pack openings and ante payouts over the same copies duplicate none,
lose none and leave the ledger replaying exactly, and that print runs are never
exceeded. The issue asks ``make bench`` to report how many of them go through per
second; it sets no target, so the speeds are reported without one. What the books must
say after each measurement does not depend on the machine's speed, so each phase's
count of problems found gates (it must be 0).

Everything runs on a fresh SQLite file in a temporary directory, through a real
:class:`~storage.Store` (writes go through the writer process, as in the bot), with a
:class:`SteppingClock` (a fake clock the flows move forward themselves: nobody sleeps
through a confirm window). Each phase has its own server, so each audit sees only its
own phase. Three measurements:

* **Pack openings**: :data:`PACKS` prize packs (:meth:`CollectionService.give_pack`,
  so no daily limit stops them) opened by :data:`PACK_OPENERS` concurrent tasks for
  :data:`PACK_PEOPLE` people, with print runs of :data:`PACK_RUNS` so that the runs
  run out during the measurement and every opening before that contends for the
  next serials. Afterwards, for every card: the limited copies are exactly
  ``min(pulls, run)`` with serials ``1 … that`` (never past the run, none twice), the
  stored print run agrees, no copy is missing, and the audit is clean.
* **Trades**: :data:`TRADE_PEOPLE` people with starters and :data:`TRADE_CONCURRENCY`
  concurrent flows, :data:`TRADES` in all. A flow is what two people do: offer →
  accept → (the clock moved to the confirm window's opening) → both confirm. The
  cards each flow names are drawn from the :data:`HOT` first (by name) non-land cards
  each person holds (as the flows so far have left them), so concurrent flows keep
  naming the same copies: some offers find the copies already locked, some
  acceptances find the asked-for copies locked or gone, and the offerer then cancels
  (as a player would, unlocking the offer). Completed and refused flows per second are
  counted apart; each completed flow's wall time (offer to the swapping confirm) gives
  p50/p99. Afterwards: the same copies exist with the same cards (none made, none
  lost), every person holds exactly what the completed trades say, nothing is left
  locked or open, and the audit is clean.
* **Ante**: :data:`ANTES` matches, :data:`ANTE_CONCURRENCY` at a time, between two of
  :data:`TRADE_PEOPLE` people: both stake a card (drawn as the trades' are, so stakes
  collide), then the ante is settled to one of them or, one time in ten, as a draw.
  Stakes and settlements per second, and the same checks as the trades.

The figures are single runs: each phase's writes change what the next run would meet
(runs exhausted, cards moved). Run it with ``python -m bench.collections`` or
``python -m bench collections``, or with every other benchmark, ``make bench``.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.figures import Figure, percentile, run_alone
from bot.clock import FakeClock
from bot.duel.collections import (
    CollectionError,
    CollectionService,
    PackOpened,
    TradeProblem,
)
from rules.duel.cards import card_set
from rules.duel.decks import STARTERS, starter
from rules.duel.packs import PACK_SIZE
from storage import Store

GROUP = "collections"
SEED = 20_240_601
PACK_GUILD, TRADE_GUILD, ANTE_GUILD = 1, 2, 3
ORGANISER = 1
"""Who gives the prize packs (the service leaves the permission to the cog)."""

PACKS = 5_000
PACK_OPENERS = 100
"""Concurrent tasks opening packs."""
PACK_PEOPLE = 250
PACK_RUNS: Mapping[str, int] = {"rare": 30, "uncommon": 120, "common": 400}
"""Small print runs, so that they run out during the measurement: the 24 rares' after
about 720 packs (one rare a pack), the 49 uncommons' after about 1,960, the 83
commons' after about 3,020. Until then every opening contends for the next serials;
after, packs hand out unlimited copies."""

TRADES = 2_400
TRADE_CONCURRENCY = 100
TRADE_PEOPLE = 60
HOT = 6
"""A flow names cards among the first this many (by name) non-land cards each person
holds: few enough that concurrent flows keep naming the same copies."""
CONFIRM_SECONDS = 5.0
"""The spec's default confirm window; the flows move the clock past it themselves."""
OFFER_SECONDS = 30 * 86_400.0
"""Offers live 30 days here, not the default 15 minutes: every acceptance moves the
shared fake clock on by the confirm window, so over a run it gets an hour or more
ahead, and the default would expire offers merely waiting their turn, a refusal the
bench did not mean to measure."""

ANTES = 2_000
ANTE_CONCURRENCY = 100
DRAW_SHARE = 0.1
"""The share of antes settled as a draw (every copy goes back)."""


class SteppingClock(FakeClock):
    """A fake clock that flows move forward to a moment they need (never back)."""

    def reach(self, moment: float) -> float:
        """Move to ``moment`` unless already past it; the time now."""
        if moment > self.now():
            self.advance(moment - self.now())
        return self.now()


def is_land(card: str) -> bool:
    """Whether ``card`` is a basic land (seven or eight of each in a starter: they
    would rarely collide)."""
    return card_set()[card].basic is not None


def hot_cards(holding: Counter[str]) -> list[str]:
    """The cards of ``holding`` flows draw from: the :data:`HOT` first non-land ones
    by name (the same few for every flow, so they collide)."""
    return sorted(card for card, n in holding.items() if n > 0 and not is_land(card))[:HOT]


def why_refused(exc: CollectionError) -> str:
    """Which check refused: the service's read (the copies were already locked or gone
    when it picked them) or the write's re-check (taken meanwhile, between that read and
    the write: the race the bank's transaction must catch). Told apart by the words the
    service uses for each, so only for the figures' notes."""
    text = str(exc)
    if "free cop" in text or "no free copy" in text:
        return "seen taken"
    if "now held by" in text or "no longer owned" in text:
        return "taken meanwhile"
    return "other"


def listed(cards: Mapping[str, int]) -> str:
    """Cards as the service reads them: "1 Kindlewhip, 2 Ashpeak"."""
    return ", ".join(f"{n} {card}" for card, n in cards.items())


def move(holdings: dict[int, Counter[str]], giver: int, taker: int,
         cards: Mapping[str, int]) -> None:
    """Record in the model that ``cards`` went from ``giver`` to ``taker``."""
    holdings[giver].subtract(cards)
    holdings[taker].update(cards)


@dataclass
class Rate:
    """One phase: what went through, what was refused, how long it took."""

    done: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    """Refused flows by the step that refused them."""
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    """Wall seconds of each flow that went through."""
    problems: list[str] = field(default_factory=list)
    """What the checks afterwards found wrong (empty: the books balance)."""
    tally: Counter[str] = field(default_factory=Counter)
    """What else a phase counts (runs that ran out, limited copies, draws)."""
    note: str = ""

    @property
    def per_second(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    @property
    def refused_per_second(self) -> float:
        return sum(self.refused.values()) / self.seconds if self.seconds else 0.0

    def ms(self, p: float) -> float:
        """The ``p``-th percentile of the flows' wall times, in milliseconds."""
        return percentile(self.latencies, p) * 1000.0


# -- pack openings --------------------------------------------------------------------------
async def open_packs(service: CollectionService, packs: int = PACKS,
                     openers: int = PACK_OPENERS, people: int = PACK_PEOPLE) -> Rate:
    """``packs`` prize packs opened by ``openers`` concurrent tasks, then checked (the
    print runs are the service's ``run_sizes``)."""
    opened: list[PackOpened] = []
    rate = Rate()

    async def opener(first: int) -> None:
        for n in range(first, packs, openers):
            started = time.perf_counter()
            got = await service.give_pack(PACK_GUILD, ORGANISER, 10_000 + n % people)
            rate.latencies.append(time.perf_counter() - started)
            opened.append(got)

    started = time.perf_counter()
    await asyncio.gather(*(opener(first) for first in range(openers)))
    rate.seconds = time.perf_counter() - started
    rate.done = len(opened)
    rate.problems = await check_packs(service, opened, packs)
    pulls = Counter(c.card for pack in opened for c in pack.copies)
    sizes = {card: service.run_sizes.get(card_set()[card].rarity, 0) for card in pulls}
    exhausted = sum(pulls[card] >= size for card, size in sizes.items())
    limited = sum(c.serial is not None for pack in opened for c in pack.copies)
    rate.tally.update({"runs ran out": exhausted, "runs": len(pulls), "limited": limited})
    runs = ", ".join(f"{rarity} {n}" for rarity, n in service.run_sizes.items())
    rate.note = (f"{packs:,} prize packs, {openers} concurrent openers, {people} people; "
                 f"runs {runs}: {exhausted} of {len(pulls)} runs ran out, {limited:,} of "
                 f"{rate.done * PACK_SIZE:,} copies limited; p50 {rate.ms(50):.1f} ms, "
                 f"p99 {rate.ms(99):.1f} ms an opening")
    return rate


async def check_packs(service: CollectionService, opened: Sequence[PackOpened],
                      packs: int) -> list[str]:
    """What is wrong with the openings: a pack not of 15, a serial twice or past its
    run, limited copies other than ``min(pulls, run)``, a stored run or copy count
    that disagrees, an audit problem."""
    problems: list[str] = []
    if len(opened) != packs:
        problems.append(f"{len(opened)} packs opened of {packs}")
    problems += [f"a pack of {len(p.copies)} copies" for p in opened
                 if len(p.copies) != PACK_SIZE]
    pulls: Counter[str] = Counter()
    serials: dict[str, list[int]] = {}
    for copy in (c for pack in opened for c in pack.copies):
        pulls[copy.card] += 1
        if copy.serial is not None:
            serials.setdefault(copy.card, []).append(copy.serial)
            size = service.run_sizes[copy.rarity]
            if copy.run_size != size or copy.serial > size:
                problems.append(f"{copy.label}: shown with a run of {copy.run_size}, "
                                f"the run is {size}")
    repo = service.repo
    for card, count in sorted(pulls.items()):
        size = service.run_sizes.get(card_set()[card].rarity, 0)
        expected = min(count, size)
        got = sorted(serials.get(card, []))
        if got != list(range(1, expected + 1)):
            problems.append(f"{card}: serials {got[:5]}… ({len(got)}) for {count} pulls "
                            f"of a run of {size}")
        run = await repo.print_run(PACK_GUILD, card)
        if expected and (run is None or (run.size, run.printed) != (size, expected)):
            problems.append(f"{card}: stored run {run} for {expected} limited of {size}")
        if (stored := await repo.copies_in_server(PACK_GUILD, card)) != count:
            problems.append(f"{card}: {stored} copies stored for {count} pulled")
    problems += await service.audit(PACK_GUILD)
    return problems


# -- people with starters -------------------------------------------------------------------
async def claim_starters(service: CollectionService, guild: int,
                         people: Sequence[int]) -> dict[int, Counter[str]]:
    """Each person claims a starter (the five in rotation); what each holds."""
    decks = list(STARTERS)
    await asyncio.gather(*(service.claim_starter(guild, user, decks[n % len(decks)])
                           for n, user in enumerate(people)))
    return {user: Counter(starter(decks[n % len(decks)])) for n, user in enumerate(people)}


async def copies_of(service: CollectionService, guild: int,
                    people: Sequence[int]) -> dict[int, tuple[str, int | None, int, bool]]:
    """Every copy the people own: id → (card, serial, owner, locked)."""
    return {c.id: (c.card, c.serial, user, c.lock is not None)
            for user in people for c in await service.repo.owned(guild, user)}


async def check_books(service: CollectionService, guild: int, people: Sequence[int],
                      before: Mapping[int, tuple[str, int | None, int, bool]],
                      holdings: Mapping[int, Counter[str]]) -> list[str]:
    """What is wrong after a phase of moves among ``people``: a copy made or lost (or
    its card or serial changed), a person holding other than the model of the moves
    that went through says, a copy still locked, an audit problem."""
    problems: list[str] = []
    after = await copies_of(service, guild, people)
    if (made := after.keys() - before.keys()):
        problems.append(f"{len(made)} copies appeared: {sorted(made)[:5]}")
    if (lost := before.keys() - after.keys()):
        problems.append(f"{len(lost)} copies vanished: {sorted(lost)[:5]}")
    problems += [f"copy {i} was {before[i][:2]}, is {after[i][:2]}"
                 for i in sorted(before.keys() & after.keys()) if before[i][:2] != after[i][:2]]
    problems += [f"copy {i} is still locked" for i, row in sorted(after.items()) if row[3]]
    for user in people:
        owned = Counter(card for card, _, owner, _ in after.values() if owner == user)
        if owned != +holdings[user]:
            differ = (owned - holdings[user]) + (+holdings[user] - owned)
            problems.append(f"person {user} holds other than the moves say: {dict(differ)}")
    problems += await service.audit(guild)
    return problems


# -- trades ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TradePlan:
    """One flow: who offers what to whom for what."""

    offerer: int
    receiver: int
    give: Mapping[str, int]
    get: Mapping[str, int]


def plan_trade(rng: random.Random, people: Sequence[int],
               holdings: Mapping[int, Counter[str]]) -> TradePlan | None:
    """A flow among ``people`` from what they hold now: one or two of the offerer's hot
    cards for (seven times in ten) one of the receiver's; ``None`` if nothing to give."""
    offerer, receiver = rng.sample(list(people), 2)
    mine, theirs = hot_cards(holdings[offerer]), hot_cards(holdings[receiver])
    if not mine:
        return None
    give = dict.fromkeys(rng.sample(mine, min(len(mine), rng.choice((1, 1, 2)))), 1)
    get = {rng.choice(theirs): 1} if theirs and rng.random() < 0.7 else {}
    return TradePlan(offerer, receiver, give, get)


async def trade_flow(service: CollectionService, clock: SteppingClock, plan: TradePlan,
                     rate: Rate, trades: dict[int, str]) -> bool:
    """Offer, accept, wait out the confirm window, confirm twice; whether the cards
    changed hands. A refusal is counted in ``rate`` by step; the trade ids made, with
    what became of each, go to ``trades``."""
    guild = TRADE_GUILD
    started = time.perf_counter()
    try:
        offered = await service.offer(guild, plan.offerer, plan.receiver, listed(plan.give),
                                      listed(plan.get))
    except TradeProblem as exc:
        rate.refused[f"offer ({why_refused(exc)})"] += 1
        return False
    trades[offered.id] = "open"
    step = "accept"
    try:
        accepted = await service.accept(offered.id, plan.receiver)
        step = "confirm"
        clock.reach(accepted.confirm_opens_at or clock.now())
        await service.confirm(offered.id, plan.offerer)
        done = await service.confirm(offered.id, plan.receiver)
    except TradeProblem as exc:
        # What a player does on seeing the refusal: withdraw the offer, unlocking it.
        await service.cancel(offered.id, plan.offerer)
        rate.refused[f"{step} ({why_refused(exc)})"] += 1
        trades[offered.id] = "cancelled"
        return False
    if done.status != "done":
        raise RuntimeError(f"trade {offered.id} confirmed by both is {done.status}")
    rate.latencies.append(time.perf_counter() - started)
    trades[offered.id] = "done"
    return True


async def run_trades(service: CollectionService, clock: SteppingClock, total: int = TRADES,
                     concurrency: int = TRADE_CONCURRENCY,
                     people_count: int = TRADE_PEOPLE) -> Rate:
    """``total`` trade flows, ``concurrency`` at a time, among ``people_count`` people
    with starters; then the books checked."""
    people = [20_000 + n for n in range(people_count)]
    holdings = await claim_starters(service, TRADE_GUILD, people)
    before = await copies_of(service, TRADE_GUILD, people)
    rate = Rate()
    trades: dict[int, str] = {}

    async def worker(first: int) -> None:
        for n in range(first, total, concurrency):
            plan = plan_trade(random.Random(f"{SEED}:trade:{n}"), people, holdings)
            if plan is None:
                rate.refused["nothing to give"] += 1
                continue
            if await trade_flow(service, clock, plan, rate, trades):
                move(holdings, plan.offerer, plan.receiver, plan.give)
                move(holdings, plan.receiver, plan.offerer, plan.get)
                rate.done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(first) for first in range(concurrency)))
    rate.seconds = time.perf_counter() - started
    rate.problems = await check_books(service, TRADE_GUILD, people, before, holdings)
    for trade_id, outcome in sorted(trades.items()):
        stored = await service.repo.trade(trade_id)
        if stored is None or stored.status != outcome:
            rate.problems.append(f"trade {trade_id} ended {outcome}, stored as "
                                 f"{stored.status if stored else 'nothing'}")
    refused = ", ".join(f"{n} at {step}" for step, n in sorted(rate.refused.items()))
    rate.note = (f"{total} offer→accept→confirm→confirm flows, {concurrency} at a time, "
                 f"among {people_count} people with starters, naming each one's first "
                 f"{HOT} non-land cards; {rate.done} completed, "
                 f"{sum(rate.refused.values())} refused ({refused or 'none'})")
    return rate


# -- ante -----------------------------------------------------------------------------------
async def run_antes(service: CollectionService, total: int = ANTES,
                    concurrency: int = ANTE_CONCURRENCY,
                    people_count: int = TRADE_PEOPLE) -> Rate:
    """``total`` antes staked and settled, ``concurrency`` at a time, among
    ``people_count`` people with starters; then the books checked."""
    people = [30_000 + n for n in range(people_count)]
    holdings = await claim_starters(service, ANTE_GUILD, people)
    before = await copies_of(service, ANTE_GUILD, people)
    rate = Rate()

    async def one(match: int) -> None:
        rng = random.Random(f"{SEED}:ante:{match}")
        seats = rng.sample(people, 2)
        cards = [hot_cards(holdings[user]) for user in seats]
        if not all(cards):
            rate.refused["nothing to stake"] += 1
            return
        staked = {seat: (user, rng.choice(cards[seat])) for seat, user in enumerate(seats)}
        started = time.perf_counter()
        try:
            await service.stake_ante(ANTE_GUILD, match, staked)
        except CollectionError as exc:
            rate.refused[f"stake ({why_refused(exc)})"] += 1
            return
        winner = None if rng.random() < DRAW_SHARE else rng.choice(seats)
        await service.settle_ante(ANTE_GUILD, match, winner)
        rate.latencies.append(time.perf_counter() - started)
        rate.done += 1
        rate.tally["drawn"] += winner is None
        if winner is not None:
            for user, card in staked.values():
                if user != winner:
                    move(holdings, user, winner, {card: 1})

    async def worker(first: int) -> None:
        for match in range(first, total, concurrency):
            await one(match)

    started = time.perf_counter()
    await asyncio.gather(*(worker(first) for first in range(concurrency)))
    rate.seconds = time.perf_counter() - started
    rate.problems = await check_books(service, ANTE_GUILD, people, before, holdings)
    refused = ", ".join(f"{n} at {step}" for step, n in sorted(rate.refused.items()))
    rate.note = (f"{total} two-player antes, {concurrency} at a time, among {people_count} "
                 f"people with starters, staking among each one's first {HOT} non-land "
                 f"cards; {rate.done} staked and settled ({rate.tally['drawn']} drawn), "
                 f"{sum(rate.refused.values())} refused ({refused or 'none'}); "
                 f"p50 {rate.ms(50):.1f} ms, p99 {rate.ms(99):.1f} ms a stake and settle")
    return rate


# -- the module -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Measured:
    """The three phases."""

    packs: Rate
    trades: Rate
    antes: Rate


async def measure_in(path: Path, packs: int = PACKS, openers: int = PACK_OPENERS,
                     run_sizes: Mapping[str, int] = PACK_RUNS, trades: int = TRADES,
                     trade_concurrency: int = TRADE_CONCURRENCY, antes: int = ANTES,
                     ante_concurrency: int = ANTE_CONCURRENCY,
                     people: int = TRADE_PEOPLE) -> Measured:
    """The three phases on a new store at ``path`` (``people``: with starters, in the
    trades and again in the ante)."""
    store = await Store.open(path)
    try:
        clock = SteppingClock()
        seeds = random.Random(SEED)  # one seeded stream: the packs are the same each run
        service = CollectionService(store, clock, rng_factory=lambda: seeds,
                                    run_sizes=run_sizes, offer_seconds=OFFER_SECONDS,
                                    confirm_seconds=CONFIRM_SECONDS)
        await service.give_pack(PACK_GUILD + 100, ORGANISER, ORGANISER)  # warm-up: writer
        return Measured(await open_packs(service, packs, openers),
                        await run_trades(service, clock, trades, trade_concurrency, people),
                        await run_antes(service, antes, ante_concurrency, people))
    finally:
        await store.close()


def figures(got: Measured) -> list[Figure]:
    """The figures of the three phases: speeds reported, problems gating."""
    def problems(rate: Rate, what: str) -> Figure:
        shown = "; ".join(rate.problems[:3]) + (" …" if len(rate.problems) > 3 else "")
        return Figure(GROUP, f"{what}: problems in the books", float(len(rate.problems)),
                      "problems", "<=", 0,
                      note=shown or "audit clean; " + {
                          "packs": "runs never exceeded, serials 1…printed once each, "
                                   "every pulled copy stored",
                          "trades": "same copies, each person holds what the completed "
                                    "trades say, nothing locked, refused trades closed",
                          "ante": "same copies, each person holds what the settled antes "
                                  "say, nothing locked"}[what])
    trades = got.trades
    return [
        Figure(GROUP, "pack openings", got.packs.per_second, "packs/s", note=got.packs.note),
        problems(got.packs, "packs"),
        Figure(GROUP, "trades completed", trades.per_second, "trades/s", note=trades.note),
        Figure(GROUP, "trades refused", trades.refused_per_second, "refusals/s",
               note=f"{sum(trades.refused.values())} refused flows in {trades.seconds:.1f} s, "
                    "beside the completed ones"),
        Figure(GROUP, "trade flow p50", trades.ms(50), "ms",
               note=f"offer to the swapping confirm, {trades.done} completed flows under "
                    "the load above (the confirm window is skipped by the fake clock)"),
        Figure(GROUP, "trade flow p99", trades.ms(99), "ms", note="as above"),
        problems(trades, "trades"),
        Figure(GROUP, "ante stakes+settles", got.antes.per_second, "antes/s",
               note=got.antes.note),
        problems(got.antes, "ante"),
    ]


def measure(**sizes: Any) -> list[Figure]:
    """Every figure, on a fresh database in a temporary directory (``sizes``: the
    keyword arguments of :func:`measure_in`)."""
    with tempfile.TemporaryDirectory(prefix="croupier-bench-") as directory:
        return figures(asyncio.run(measure_in(Path(directory) / "collections.sqlite3",
                                              **sizes)))


def run() -> list[Figure]:
    """Every figure of the collections under contention."""
    got = measure()
    for f in got:
        print(f"{f.name}: {f.shown} {f.unit} — {f.note}", flush=True)
    return got


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
