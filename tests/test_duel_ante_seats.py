"""An ante table's seat and its start ask one question of a deck — can it be played
and staked now? — so a deck that sits down is a deck the duel starts with, whatever
card ends up on top: no seat that then fails every /start. Basic lands are free to
play with but staked only as a copy one owns (docs/rules/collections.md)."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.duel.collections import CollectionService
from bot.errors import CroupierError
from bot.games import match_hooks
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from rules.duel.decks import starter
from rules.registry import get_game
from storage import Store

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

G = 1
ADA, BO = Player(11, "Ada"), Player(12, "Bo")
CHANNEL = 300
DUEL = get_game("duel")


@pytest.fixture
async def tables(store: Store):
    clock = FakeClock()
    service = MatchService(store, clock=clock, timing=Timing(turn_seconds=120),
                           hooks=match_hooks(store, clock))
    await store.settings.update(G, ante=True)
    cards = CollectionService(store, clock)
    await cards.claim_starter(G, ADA.user_id, "ember-and-grove")
    await cards.claim_starter(G, BO.user_id, "tide-and-night")
    yield service, cards
    await service.wind_down()


async def sit(service: MatchService, deck: str, seed: int) -> None:
    """Ada opens an ante table with her starter; Bo sits down with ``deck``."""
    mine = await service.seat_deck(DUEL, G, ADA.user_id, "ember-and-grove")
    await service.open_lobby(ADA, guild_id=G, channel_id=CHANNEL, game="duel",
                             options={"ante": True}, seed=seed, setup=mine)
    theirs = await service.seat_deck(DUEL, G, BO.user_id, deck)
    await service.join(BO, CHANNEL, setup=theirs)


DECKS = {
    "lands": ("20 Dawnfield, 20 Mistshore", False),  # Dawnfield never owned
    "one stranger": ("\n".join(f"1 {c}" for c in starter("tide-and-night")[:-1])
                     + "\n1 Ashpeak", False),  # 39 of his own, one unowned basic land
    "islands": ("40 Mistshore", True),  # owned, if fewer than 40: basic lands are free
    "tide-and-night": (None, True),  # his claimed starter
}


@pytest.mark.parametrize("deck", DECKS)
async def test_a_deck_seated_at_an_ante_table_starts_whatever_is_on_top(tables, deck):
    service, cards = tables
    listing, stakeable = DECKS[deck]
    if listing is not None:
        await cards.save_deck(G, BO.user_id, deck, listing)
    assert (await cards.deck(G, BO.user_id, deck)).problem is None  # playable, all of them
    for seed in range(6):
        try:
            await sit(service, deck, seed)
        except CroupierError as refusal:
            assert not stakeable, refusal
            assert "short of a copy to stake of" in str(refusal)
            assert "basic lands are free to play with" in str(refusal)
            assert len(service.match_in(CHANNEL).seats) == 1  # nothing changed
        else:
            assert stakeable
            match = await service.start(ADA, CHANNEL)  # never refused once seated
            assert match.row.status == "active" and all(match.state.ante)
        await service.cancel(ADA, CHANNEL)
        await service.settle()


async def test_a_stake_given_away_after_sitting_down_is_named_at_the_start(tables):
    """Between the seat and the start Bo offers every Mistshore he owns: the start says
    so (the same check as the seat's), not that a card is 'no longer free … try again'."""
    service, cards = tables
    await cards.save_deck(G, BO.user_id, "islands", "40 Mistshore")
    await sit(service, "islands", 1)
    owned = (await cards.card_counts(G, BO.user_id, "Mistshore")).owned
    trade = await cards.offer(G, BO.user_id, ADA.user_id, f"{owned} Mistshore", "")
    with pytest.raises(CroupierError) as refused:
        await service.start(ADA, CHANNEL)
    assert "Bo's deck can't be played now: short of a copy to stake of: Mistshore" in \
        str(refused.value)
    assert "no longer free" not in str(refused.value)
    await cards.cancel(trade.id, BO.user_id)
    assert (await service.start(ADA, CHANNEL)).row.status == "active"
    await service.cancel(ADA, CHANNEL)
