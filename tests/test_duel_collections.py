"""The collections service with a fake clock, on both engines (SQLite, and PostgreSQL
from tests/pgstore.py): every method, its refusals (each changing nothing), trades with
their confirm window, ante, hostile input, and concurrent trades that keep the books
balanced."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from bot.clock import FakeClock
from bot.duel.collections import (
    MOST_WAITING,
    CollectionError,
    CollectionService,
    PackGiver,
    TooSoon,
    TradeProblem,
    pick_free,
    wait_text,
)
from bot.errors import CroupierError, NotAllowed
from bot.i18n import say
from rules.duel.decks import starter
from storage.collections import Copy

GUILD = 1
ADA, BO, CY = 11, 12, 13
RED_GREEN = "ember-and-grove"
BLUE_BLACK = "tide-and-night"

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(store, clock) -> CollectionService:
    return CollectionService(store, clock, rng_factory=lambda: random.Random(7))


async def books(service: CollectionService, *users: int) -> tuple:
    """Everything a refusal must leave as it was: counts per user and the audit."""
    counts = [await service.repo.counts(GUILD, user) for user in users]
    decks = [await service.repo.decks(GUILD, user) for user in users]
    return counts, decks, await service.audit(GUILD)


async def refused(service: CollectionService, users: tuple[int, ...], call, error=CroupierError,
                  match: str | None = None) -> str:
    """Run ``call``, expect a refusal, and check that it changed nothing."""
    before = await books(service, *users)
    with pytest.raises(error, match=match) as caught:
        await call
    assert await books(service, *users) == before
    return str(caught.value)


# -- helpers ---------------------------------------------------------------------------
def test_wait_text_and_giving_order():
    assert wait_text(3 * 3600 + 11 * 60 + 5).english() == "3 h 12 min"
    assert wait_text(42.2).in_locale("pt_BR") == "43 s"
    copies = [Copy(i, GUILD, "Kindlewhip", "limited" if s else "unlimited", s, ADA, "pack", 0)
              for i, s in ((1, 3), (2, None), (3, 40))]
    chosen, short = pick_free(copies, {"Kindlewhip": 2, "Ashpeak": 1})
    assert [c.id for c in chosen] == [2, 3] and short == {"Ashpeak": 1}


# -- starters and packs ----------------------------------------------------------------
async def test_claim_starter_once(service):
    message = await refused(service, (ADA,), service.claim_starter(GUILD, ADA, "dragons"))
    assert "ember-and-grove" in message and "tide-and-night" in message
    claimed = await service.claim_starter(GUILD, ADA, " Ember-and-Grove ")
    assert claimed.deck_name == RED_GREEN and len(claimed.copies) == 40
    assert Counter(c.card for c in claimed.copies) == Counter(starter(RED_GREEN))
    assert len(await service.deck_for_duel(GUILD, ADA, RED_GREEN)) == 40
    await refused(service, (ADA,), service.claim_starter(GUILD, ADA, BLUE_BLACK),
                  match="already claimed")
    assert await service.audit(GUILD) == []


async def test_daily_pack_is_seeded_rarest_first_and_daily(service, clock):
    first = await service.open_daily_pack(GUILD, ADA)
    again = await service.open_daily_pack(2, ADA)  # another server, same seeded rng
    assert [c.card for c in first.copies] == [c.card for c in again.copies]
    assert [c.rarity for c in first.copies] == ["rare"] + ["uncommon"] * 3 + ["common"] * 11
    assert all(c.serial == 1 and say(c.label, "en").endswith("#1 of " + str(c.run_size))
               for c in first.copies)
    clock.advance(48 * 60)
    message = await refused(service, (ADA,), service.open_daily_pack(GUILD, ADA), TooSoon)
    assert "23 h 12 min" in message
    prize = await service.give_pack(GUILD, BO, ADA)  # prizes ignore the daily claim
    assert prize.next_claim_at is None and len(prize.copies) == 15
    clock.advance(23 * 3600 + 12 * 60)
    assert len((await service.open_daily_pack(GUILD, ADA)).copies) == 15
    assert await service.audit(GUILD) == []


# -- looking ---------------------------------------------------------------------------
async def test_collection_pages_filters_and_privacy(service):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    page = await service.collection(GUILD, ADA, ADA, sort="count", per_page=5)
    assert page.pages == 6 and page.copies == 40 and page.cards == 26
    assert [(r.card, r.count) for r in page.rows[:2]] == [("Ashpeak", 8), ("Mossvale", 8)]
    red = await service.collection(GUILD, BO, ADA, colour="red", per_page=50)
    assert red.rows and all(r.colour == "R" for r in red.rows)
    named = await service.collection(GUILD, BO, ADA, name="kindle")
    assert [(r.card, r.free, r.unlimited, r.serials) for r in named.rows] == [
        ("Kindlewhip", 1, 1, ())]
    assert (await service.collection(GUILD, ADA, ADA, edition="limited")).rows == ()
    last = await service.collection(GUILD, ADA, ADA, page=999, per_page=5)
    assert last.page == 6
    await refused(service, (ADA,), service.collection(GUILD, BO, ADA, public=False), NotAllowed,
                  match="private")
    assert (await service.collection(GUILD, ADA, ADA, public=False)).copies == 40
    for bad in ({"colour": "purple"}, {"rarity": "mythic"}, {"sort": "price"},
                {"type": "@everyone"}, {"page": "2"}, {"per_page": 1e9}):
        with pytest.raises(CollectionError, match=r"one of|whole number"):
            await service.collection(GUILD, ADA, ADA, **bad)


async def test_card_counts(service):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.open_daily_pack(GUILD, BO)
    counts = await service.card_counts(GUILD, ADA, "  ashPEAK ")
    assert (counts.owned, counts.free, counts.in_server, counts.run_left) == (8, 8, 8, None)
    pulled = (await service.open_daily_pack(GUILD, CY)).copies[0]
    rare = await service.card_counts(GUILD, CY, pulled.card)
    assert rare.owned == 1 and rare.run_size == 100 and rare.run_left <= 99
    with pytest.raises(CollectionError, match="Did you mean Kindlewhip"):
        await service.card_counts(GUILD, ADA, "Kindlewip")


# -- decks -----------------------------------------------------------------------------
async def test_deck_crud_and_export(service):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    view = await service.save_deck(GUILD, ADA, "  burn  it ", "4 Kindlewhip\n17 Ashpeak")
    assert view.name == "burn it" and view.total == 21 and "at least 40" in view.problem.english()
    view = await service.add_cards(GUILD, ADA, "burn it", "22 Mossvale, Scorchback Runner")
    assert view.total == 44 and view.problem.english().startswith("short of: 3 Kindlewhip")
    view = await service.remove_cards(GUILD, ADA, "burn it", "3 Kindlewhip")
    assert view.problem is None
    assert await service.deck_for_duel(GUILD, ADA, "burn it")
    assert "1 Kindlewhip" in await service.export_deck(GUILD, ADA, "burn it")
    assert [d.name for d in await service.decks(GUILD, ADA)] == ["burn it", RED_GREEN]
    await refused(service, (ADA,), service.remove_cards(GUILD, ADA, "burn it", "20 Ashpeak"),
                  match=r"holds 17 Ashpeak \(you asked to take out 20\)")
    assert await service.delete_deck(GUILD, ADA, "burn it") == "burn it"
    message = await refused(service, (ADA,), service.deck(GUILD, ADA, "burn it"))
    assert RED_GREEN in message


@pytest.mark.parametrize("name", ["", " ", "x" * 33, "**bold**", "<@123>", "dé", "٣٣",
                                  "a\nb\u200b", None])
async def test_hostile_deck_names_are_refused(service, name):
    await refused(service, (ADA,), service.save_deck(GUILD, ADA, name, "4 Kindlewhip"),
                  CollectionError, match="deck name")


@pytest.mark.parametrize("text", ["", " \n ", "4 Kindlewhip\n" * 3000, "٤ Kindlewhip",
                                  "**4 Kindlewhip**",
                                  "4 <@&123>", "99999999999999999999 Ashpeak", "@everyone",
                                  "4 Kindlewhip\n" + "9 Ashpeak\n" * 30])
async def test_hostile_lists_are_refused(service, text):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await refused(service, (ADA, BO), service.save_deck(GUILD, ADA, "x", text), CollectionError)
    await refused(service, (ADA, BO), service.offer(GUILD, ADA, BO, text, ""), CollectionError)


async def test_deck_for_duel_names_short_and_locked_copies(service):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.claim_starter(GUILD, BO, BLUE_BLACK)
    message = await refused(service, (ADA,), service.deck_for_duel(GUILD, ADA, "nope"))
    assert "no deck 'nope'" in message
    await service.add_cards(GUILD, ADA, RED_GREEN, "1 Kindlewhip, 1 Brinewing Skimmer")
    message = await refused(service, (ADA,), service.deck_for_duel(GUILD, ADA, RED_GREEN))
    assert "short of: 1 Brinewing Skimmer, 1 Kindlewhip" in message
    await service.remove_cards(GUILD, ADA, RED_GREEN, "1 Kindlewhip, 1 Brinewing Skimmer")
    await service.offer(GUILD, ADA, BO, "Kindlewhip, Scorchback Runner, 2 Ashpeak", "")
    message = await refused(service, (ADA,), service.deck_for_duel(GUILD, ADA, RED_GREEN))
    assert "short of: 1 Kindlewhip, 1 Scorchback Runner (locked in a trade or ante: " \
           "1 Kindlewhip, 1 Scorchback Runner)" in message  # lands are free: never short


# -- trades ----------------------------------------------------------------------------
async def test_full_trade_with_confirm_window(service, clock):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.claim_starter(GUILD, BO, BLUE_BLACK)
    trade = await service.offer(GUILD, ADA, BO, "Kindlewhip, 2 Ashpeak", "Brinewing Skimmer")
    assert trade.status == "open" and sorted(c.card for c in trade.give) == [
        "Ashpeak", "Ashpeak", "Kindlewhip"] and [c.card for c in trade.get] == [
        "Brinewing Skimmer"]
    await refused(service, (ADA, BO), service.accept(trade.id, ADA), TradeProblem,
                  match="Only the person")
    await refused(service, (ADA, BO), service.confirm(trade.id, ADA), TradeProblem,
                  match="not been accepted")
    await refused(service, (ADA, BO), service.cancel(trade.id, CY), TradeProblem)
    await refused(service, (ADA, BO), service.offer(GUILD, ADA, BO, "Kindlewhip", ""),
                  TradeProblem, match="short of 1 Kindlewhip")
    accepted = await service.accept(trade.id, BO)
    assert accepted.status == "accepted" and accepted.confirm_opens_at == clock.now() + 5
    assert (await service.accept(trade.id, BO)).status == "accepted"  # a double click
    clock.advance(2)
    message = await refused(service, (ADA, BO), service.confirm(trade.id, BO), TooSoon)
    assert "3 s" in message
    clock.advance(3)
    assert (await service.confirm(trade.id, BO)).receiver_confirmed
    assert (await service.confirm(trade.id, BO)).status == "accepted"  # a second press
    done = await service.confirm(trade.id, ADA)
    assert done.status == "done" and (await service.confirm(trade.id, ADA)).status == "done"
    ada = await service.repo.counts(GUILD, ADA)
    bo = await service.repo.counts(GUILD, BO)
    assert "Kindlewhip" not in ada and ada["Brinewing Skimmer"].owned == 1
    assert bo["Kindlewhip"].free == 1 and bo["Ashpeak"].owned == 2
    await refused(service, (ADA, BO), service.cancel(trade.id, ADA), TradeProblem,
                  match=r"is done: it can.t be cancelled")
    assert await service.audit(GUILD) == []


async def test_decline_cancel_and_expiry_unlock(service, clock):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.claim_starter(GUILD, BO, BLUE_BLACK)
    first = await service.offer(GUILD, ADA, BO, "Kindlewhip", "")
    assert (await service.decline(first.id, BO)).status == "declined"
    second = await service.offer(GUILD, ADA, BO, "Kindlewhip", "")
    assert (await service.cancel(second.id, BO)).status == "cancelled"
    third = await service.offer(GUILD, ADA, BO, "Kindlewhip", "")
    assert (await service.repo.counts(GUILD, ADA))["Kindlewhip"].free == 0
    clock.advance(901)
    await refused(service, (ADA, BO), service.accept(third.id, BO), TradeProblem,
                  match="expired")
    assert await service.expire_due() == [third.id]
    assert (await service.repo.counts(GUILD, ADA))["Kindlewhip"].free == 1
    await refused(service, (ADA,), service.offer(GUILD, ADA, ADA, "Kindlewhip", ""),
                  TradeProblem, match="yourself")
    await refused(service, (ADA, BO), service.offer(GUILD, ADA, BO, "", " "), TradeProblem)
    assert await service.audit(GUILD) == []


# -- ante ------------------------------------------------------------------------------
async def test_ante_payout_and_draw(service):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.claim_starter(GUILD, BO, BLUE_BLACK)
    await refused(service, (ADA, BO), service.stake_ante(
        GUILD, 7, {0: (ADA, "Kindlewhip"), 1: (BO, "Kindlewhip")}), match="Seat 2")
    staked = await service.stake_ante(GUILD, 7, {0: (ADA, "Kindlewhip"), 1: (BO, "Murkfen")})
    assert {s: c.card for s, c in staked.copies.items()} == {0: "Kindlewhip", 1: "Murkfen"}
    await refused(service, (ADA, BO), service.stake_ante(
        GUILD, 7, {0: (ADA, "Ashpeak"), 1: (BO, "Murkfen")}), match="already has an ante")
    assert (await service.repo.counts(GUILD, ADA))["Kindlewhip"].free == 0
    await refused(service, (ADA, BO), service.settle_ante(GUILD, 7, CY), match="staked nothing")
    paid = await service.settle_ante(GUILD, 7, ADA)
    assert [c.card for c in paid.moved] == ["Murkfen"]
    assert (await service.repo.counts(GUILD, ADA))["Murkfen"].owned == 1
    await refused(service, (ADA, BO), service.settle_ante(GUILD, 7, ADA), match="no ante")
    await service.stake_ante(GUILD, 8, {0: (ADA, "Ashpeak"), 1: (BO, "Murkfen")})
    drawn = await service.settle_ante(GUILD, 8, None)
    assert drawn.moved == () and (await service.repo.counts(GUILD, BO))["Murkfen"].free == 7
    assert await service.audit(GUILD) == []


# -- contention ------------------------------------------------------------------------
async def test_hundreds_of_concurrent_trades_keep_the_books(service, clock):
    users = (ADA, BO, CY)
    for user, deck in zip(users, (RED_GREEN, BLUE_BLACK, RED_GREEN), strict=True):
        await service.claim_starter(GUILD, user, deck)
    start = Counter(starter(RED_GREEN)) + Counter(starter(RED_GREEN)) + Counter(
        starter(BLUE_BLACK))
    rng = random.Random(3)
    lands = ["Ashpeak", "Mossvale", "Murkfen", "Kindlewhip"]

    async def offer():
        giver, taker = rng.sample(users, 2)
        give = f"{rng.randint(1, 2)} {rng.choice(lands)}"
        get = rng.choice(["", rng.choice(lands)])
        return await service.offer(GUILD, giver, taker, give, get)

    def ok(results, statuses):
        # Every failure is a refusal a player can read, never an internal error.
        assert all(isinstance(r, CroupierError) if isinstance(r, BaseException)
                   else r.status in statuses for r in results)
        return [r for r in results if not isinstance(r, BaseException)]

    done = refused_offers = 0
    for _ in range(4):
        offers = await asyncio.gather(*(offer() for _ in range(60)), return_exceptions=True)
        live = ok(offers, {"open"})
        refused_offers += len(offers) - len(live)
        moves = [service.accept(t.id, t.receiver) for t in live * 2]
        moves += [service.cancel(t.id, t.offerer) for t in live[::5]]
        ok(await asyncio.gather(*moves, return_exceptions=True),
           {"accepted", "cancelled"})
        clock.advance(5)
        confirms = ok(await asyncio.gather(*(service.confirm(t.id, who) for t in live
                                             for who in (t.offerer, t.receiver, t.offerer)),
                                           return_exceptions=True),
                      {"accepted", "done", "cancelled"})
        done += len({c.id for c in confirms if c.status == "done"})
        assert await service.audit(GUILD) == []
        clock.advance(OFFER_AND_MORE)
        await service.expire_due()
    assert done >= 10 and refused_offers >= 10  # both went through and collided
    totals = Counter()
    for user in users:
        for card, count in (await service.repo.counts(GUILD, user)).items():
            totals[card] += count.owned
            assert count.free == count.owned  # every lock released
    assert totals == start
    assert await service.audit(GUILD) == []


OFFER_AND_MORE = 3600


async def test_concurrent_pack_openings_never_exceed_a_run(store, clock):
    service = CollectionService(store, clock, run_sizes={"rare": 2, "uncommon": 3,
                                                         "common": 5})
    packs = await asyncio.gather(*(service.give_pack(GUILD, ADA, user)
                                   for user in range(100, 160)))
    serials = Counter((c.card, c.serial) for p in packs for c in p.copies if c.serial)
    assert serials and max(serials.values()) == 1  # each serial once per card
    assert all(c.serial <= c.run_size for p in packs for c in p.copies if c.serial)
    assert sum(len(p.copies) for p in packs) == 60 * 15
    assert await service.audit(GUILD) == []


# -- packs as /pack gives and opens them -----------------------------------------------
ORGANISER_ROLE = 900


async def test_pack_open_takes_a_given_pack_then_the_daily_then_says_how(service, store, clock):
    await store.settings.update(GUILD, organiser_role_id=ORGANISER_ROLE)
    for giver in (PackGiver(BO, manages_server=False), PackGiver(BO, False, frozenset({5}))):
        message = await refused(service, (ADA,), service.give_packs(GUILD, giver, ADA, 1),
                                NotAllowed)
        assert "organiser role" in message
    boss, organiser = PackGiver(CY, True), PackGiver(BO, False, frozenset({ORGANISER_ROLE}))
    for count in (0, 11, "3", True):
        await refused(service, (ADA,), service.give_packs(GUILD, boss, ADA, count),
                      CollectionError)
    assert await service.give_packs(GUILD, organiser, ADA, 2) == 2
    assert await service.give_packs(GUILD, boss, ADA) == 3
    waiting = await service.packs_waiting(GUILD, ADA)
    assert len(waiting.given) == 3 and waiting.daily and waiting.daily_due_at is None
    opened = [await service.open_pack(GUILD, ADA) for _ in range(4)]
    assert [(o.source, o.waiting) for o in opened] == [("prize", 2), ("prize", 1),
                                                       ("prize", 0), ("daily", 0)]
    assert opened[0].next_claim_at is None and opened[3].next_claim_at == clock.now() + 86400
    assert [c.rarity for c in opened[0].copies][:1] == ["rare"]
    message = await refused(service, (ADA,), service.open_pack(GUILD, ADA), TooSoon)
    assert "no pack waiting" in message and "24 h" in message
    assert (await service.packs_waiting(GUILD, ADA)).daily_due_at == clock.now() + 86400
    await store.settings.update(GUILD, daily_pack=False, win_packs=True)
    message = await refused(service, (ADA,), service.open_pack(GUILD, ADA), CollectionError)
    assert "no pack to open" in message and "rated duel won" in message
    assert "daily" not in message
    message = await refused(service, (BO,), service.open_pack(GUILD, BO), CollectionError)
    assert "organisers give" in message
    for _ in range(MOST_WAITING // 10):
        await service.give_packs(GUILD, boss, BO, 10)
    message = await refused(service, (BO,), service.give_packs(GUILD, boss, BO, 1))
    assert f"{MOST_WAITING} packs waiting" in message
    report = await service.audit_report(GUILD)
    assert (report.copies, report.ledger_rows, report.problems) == (60, 60, ())


async def test_trade_actions_stay_on_their_server_and_offers_keep_private_counts(service,
                                                                               store):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.claim_starter(GUILD, BO, BLUE_BLACK)
    trade = await service.offer(GUILD, ADA, BO, "Kindlewhip", "")
    for act in (service.accept, service.decline, service.cancel, service.confirm):
        await refused(service, (ADA, BO), act(trade.id, BO, guild=2), TradeProblem,
                      match="no such trade on this server")
        await refused(service, (ADA, BO), act(trade.id + 1, BO, guild=GUILD), TradeProblem,
                      match="no such trade")
    with pytest.raises(TradeProblem, match="no such trade"):
        await service.trade(trade.id, 2)
    assert (await service.trade(trade.id, GUILD)).face == "open:00"
    assert [t.id for t in await service.open_trades(GUILD, BO)] == [trade.id]
    assert await service.open_trades(GUILD, CY) == []
    counted = await refused(service, (ADA, BO), service.offer(GUILD, ADA, BO, "", "3 Kindlewhip"))
    assert "short of 3 Kindlewhip" in counted
    await store.settings.update(GUILD, collections_public=False)
    hidden = await refused(service, (ADA, BO), service.offer(GUILD, ADA, BO, "", "3 Kindlewhip"))
    assert "Kindlewhip" not in hidden and "private" in hidden
    # Still refused with counts for one's own side: those are one's own to know.
    assert "short of" in await refused(service, (ADA, BO),
                                       service.offer(GUILD, ADA, BO, "9 Kindlewhip", ""))


async def test_offer_messages_behind_their_trade_are_found(service, clock):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.claim_starter(GUILD, BO, BLUE_BLACK)
    trade = await service.offer(GUILD, ADA, BO, "Kindlewhip", "Brinewing Skimmer")
    await service.offer_shown(trade, 70, 80)
    assert await service.offers_behind() == []
    accepted = await service.accept(trade.id, BO, guild=GUILD)
    [(message, now)] = await service.offers_behind()
    assert (message.shown, now.face) == ("open:00", "accepted:00")
    await service.offer_shown(accepted, 70, 80)
    clock.advance(3600)
    assert await service.expire_due() == [trade.id]
    [(_, now)] = await service.offers_behind()
    assert now.status == "expired" and [c.card for c in now.give] == ["Kindlewhip"]
    await service.offer_shown(now, 70, 80)
    assert await service.offers_behind() == [] and await service.offer_message(trade.id)


async def test_a_deck_is_not_overwritten_unless_asked(service):
    await service.save_deck(GUILD, ADA, "mine", "4 Kindlewhip")
    await refused(service, (ADA,), service.save_deck(GUILD, ADA, "mine", "Ashpeak",
                                                     replace=False), match="already have")
    assert (await service.save_deck(GUILD, ADA, "mine", "Ashpeak", replace=True)).total == 1


async def test_taking_out_more_than_a_deck_holds_says_what_it_holds(service):
    await service.save_deck(GUILD, ADA, "Mine", "1 Kindlewhip, 2 Ashpeak")
    message = await refused(service, (ADA,), service.remove_cards(
        GUILD, ADA, "Mine", "2 Kindlewhip, 2 Ashpeak, 1 Mossvale"))
    assert "holds 1 Kindlewhip (you asked to take out 2)" in message
    assert "and no Mossvale (you asked to take out 1)" in message
    assert "Ashpeak" not in message and "does not hold" not in message
    assert "Nothing was taken out" in message


async def test_a_short_deck_says_how_many_it_has_how_many_more_and_what_is_not_owned(
        service):
    view = await service.save_deck(GUILD, ADA, "Small", "4 Kindlewhip, 17 Ashpeak")
    assert "21 cards: 19 more are needed (a deck has at least 40)" in view.problem.english()
    assert "short of: 4 Kindlewhip" in view.problem.english()  # said together, not one at a time
    assert view.problem.in_locale("pt_BR").startswith(
        "ele tem 21 cartas: faltam 19 (um deck tem no mínimo 40); faltam cópias livres de: "
        "4 Chicote de Brasa")


async def test_deck_names_ignore_case_and_keep_the_case_typed(service):
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    await service.save_deck(GUILD, ADA, "Burn", "4 Mossvale")
    await refused(service, (ADA,), service.save_deck(GUILD, ADA, "burn", "Ashpeak",
                                                     replace=False),
                  match="already have a deck 'Burn'")
    view = await service.add_cards(GUILD, ADA, "BURN", "36 Ashpeak")
    assert view.name == "Burn" and view.total == 40  # added to it; its name kept
    assert (await service.deck(GUILD, ADA, "bUrN")).name == "Burn"
    assert "4 Mossvale" in await service.export_deck(GUILD, ADA, "burn")
    assert await service.deck_for_duel(GUILD, ADA, "burn")
    assert [d.name for d in await service.decks(GUILD, ADA)] == ["Burn", RED_GREEN]
    replaced = await service.save_deck(GUILD, ADA, "burn", "40 Ashpeak", replace=True)
    assert replaced.name == "burn"  # replaced as typed now: still one deck
    assert [d.name for d in await service.decks(GUILD, ADA)] == ["burn", RED_GREEN]
    assert await service.delete_deck(GUILD, ADA, "BURN") == "burn"
    assert [d.name for d in await service.decks(GUILD, ADA)] == [RED_GREEN]


async def test_a_list_of_decks_reads_the_owners_counts_once(service, monkeypatch):
    """Whether each deck can be played and staked is worked out from one read of what
    its owner owns, not two reads per deck."""
    await service.claim_starter(GUILD, ADA, RED_GREEN)
    for name in ("One", "Two", "Three"):
        await service.save_deck(GUILD, ADA, name, "20 Ashpeak, 20 Mossvale")
    reads = []
    counts = service.repo.counts

    async def counted(guild, user):
        reads.append(user)
        return await counts(guild, user)

    monkeypatch.setattr(service.repo, "counts", counted)
    listed = await service.decks(GUILD, ADA)
    assert len(listed) == 4 and reads == [ADA]
    reads.clear()
    await service.deck(GUILD, ADA, "one")
    assert reads == [ADA]


async def test_card_lists_read_card_names_in_portuguese_too(service):
    """A Portuguese player types the names they read: a card list reads them as the
    set's names (and says no card in their language)."""
    await service.claim_starter(GUILD, ADA, "ember-and-grove")
    view = await service.save_deck(GUILD, ADA, "Brasa", "4 Chicote de Brasa, 17 pico das cinzas")
    assert dict(view.cards) == {"Kindlewhip": 4, "Ashpeak": 17}
    with pytest.raises(CroupierError) as caught:
        await service.save_deck(GUILD, ADA, "Nada", "2 Chicote de Brasx")
    assert say(caught.value.text, "pt_BR") == (
        "Não consegui ler a lista do deck: linha 1: não existe nenhuma carta 'Chicote de "
        "Brasx'.")


async def test_a_collection_is_filtered_by_a_name_in_portuguese_too(service):
    await service.claim_starter(GUILD, ADA, "ember-and-grove")
    page = await service.collection(GUILD, ADA, ADA, name="chicote de")
    assert [row.card for row in page.rows] == ["Kindlewhip"]
    assert [row.card for row in (await service.collection(GUILD, ADA, ADA,
                                                          name="kindle")).rows] == ["Kindlewhip"]
