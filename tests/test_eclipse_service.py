"""Eclipse through the match service (real SQLite, a recording transport, a fake
clock): a person's secret card choice is theirs to make even when they hold a
single symbol card, and the table learns nothing of it until they do."""

from __future__ import annotations

import random

import pytest

from bot.clock import FakeClock
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService, Timing
from rules.eclipse import choose
from rules.eclipse.state import EclipseState
from tests.recording import RecordingTransport

ADA = Player(1, "Ada")
CHANNEL = 700
SEED = 5
"""A deal where Ada, playing the computer's way, soon holds one symbol card."""


@pytest.fixture
def transport():
    return RecordingTransport()


@pytest.fixture
async def service(store, transport):
    service = MatchService(store, transport, clock=FakeClock(),
                           timing=Timing(turn_seconds=120, warn_seconds=30))
    yield service
    await service.settle()


def public(transport: RecordingTransport) -> list[str]:
    """The public events published so far, by kind (and seat, for "has chosen")."""
    return [e.kind + (f":{e.data['seat']}" if e.kind == "chosen" else "")
            for _, published in transport.published for e in published]


def one_card_for_ada(match: LiveMatch) -> bool:
    decision = match.state.decision_for(0)
    return decision is not None and decision.kind == "card" and len(decision.options) == 1


async def play_until_ada_holds_one_symbol_card(service: MatchService,
                                               match: LiveMatch) -> None:
    """Ada plays as the computer would until her card choice has a single option."""
    rng = random.Random(SEED)
    for _ in range(300):
        await service.settle()
        if one_card_for_ada(match):
            return
        assert not match.finished, "Ada was never asked to choose her one symbol card"
        assert match.state.decision_for(0) is not None
        await service.submit(ADA.user_id, match.id, choose(match.state.copy(), 0, rng))
    raise AssertionError("Ada never held a single symbol card")


async def test_a_person_with_one_symbol_card_still_chooses_it(service, transport, store):
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game="eclipse",
                                     options={"counterattack": 0}, seats=2, vs_bot=True,
                                     seed=SEED)
    await play_until_ada_holds_one_symbol_card(service, match)
    state = match.state
    assert isinstance(state, EclipseState)
    (only,) = state.decision_for(0).options
    symbol_cards = [c for c in state.hands[0] if not state.cards[c].follower]
    assert [state.cards[c].code for c in symbol_cards] == [only]
    step, earlier = state.step, state.last_reveal
    # The computer seat has chosen (it always chooses at once); Ada has not, and the
    # platform does not choose for her.
    await service.settle()
    assert state is match.state and state.step == step
    assert state.has_chosen(1) and not state.has_chosen(0)
    assert state.decision_for(0).options == (only,)
    table = state.observe(None)
    assert table.chosen == (1,) and table.waiting == (0,) and table.reveal == earlier
    shown = public(transport)
    hand = max(i for i, kind in enumerate(shown) if kind == "attack")
    assert shown[hand:] == ["attack", "chosen:1"]
    log = await store.matches.choices(match.id)
    assert not [row for row in log if row.step == step and row.seat == 0]
    # Her direct message offers the one card to pick.
    assert transport.private[-1][0] == ADA.user_id
    assert transport.private[-1][1].decision.options == (only,)

    await service.submit(ADA.user_id, match.id, only)
    await service.settle()
    assert match.state.step > step
    assert public(transport)[hand:hand + 4] == ["attack", "chosen:1", "chosen:0", "reveal"]
    reveal = match.state.last_reveal
    assert reveal is not None and reveal != earlier
    assert only in (reveal.attacker_card.code, reveal.defender_card.code)
    log = await store.matches.choices(match.id)
    assert [row.source for row in log if row.step == step and row.seat == 0] == ["player"]
