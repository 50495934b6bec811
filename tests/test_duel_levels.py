"""Arcane Duel's computer levels: ``easy`` and ``hard`` beside ``normal``, and
``unseen``, which deals again what a seat cannot see (for a searching player).

The ladders (hard against normal, easy against normal, over hundreds of games)
are measured in ``bench/levels_duel.py``; these tests hold what can be checked
in seconds: legal choices everywhere, a search that repeats itself under a
counting clock, combat decisions ``hard`` must get right where ``normal`` does
not, and a deal of the unseen that keeps the seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from rules.arena import play
from rules.core import thinking_rng
from rules.duel import GAME, DuelState, bot, easy, hard
from rules.duel.notation import act, parse, pass_until
from rules.duel.unseen import unseen
from rules.thinking import counting_clock

TICK = 0.01
"""The counting clock's step: ``hard`` then tries a handful of playouts a decision."""


PER_KIND = 12
"""Positions kept of each kind of decision."""


@cache
def positions() -> tuple[tuple[DuelState, int], ...]:
    """Positions with a real choice from four seeded duels, at most
    :data:`PER_KIND` of each kind of decision (most are priority windows)."""
    found: list[tuple[DuelState, int]] = []
    kinds: Counter[str] = Counter()
    for seed in range(4):
        state = GAME.new({}, 2, seed)
        assert isinstance(state, DuelState)
        while state.outcome() is None:
            for decision in state.pending():
                if decision.forced is None and len(decision.options) > 1 \
                        and kinds[decision.kind] < PER_KIND * (seed + 1) // 4:
                    kinds[decision.kind] += 1
                    found.append((state.copy(), decision.seat))
                choice = decision.forced or GAME.bot(
                    state.copy(), decision.seat, thinking_rng(seed, state.step, decision.seat))
                state.apply(decision.seat, choice)
    return tuple(found)


def think(level: str, state: DuelState, seat: int, seed: int = 1) -> str:
    with counting_clock(TICK):
        return GAME.computer(level)(state.copy(), seat, random.Random(seed))


def test_the_levels_are_registered() -> None:
    assert GAME.computer("easy") is easy.choose
    assert GAME.computer("hard") is hard.choose
    assert GAME.computer("normal") is bot.choose
    assert GAME.unseen is unseen


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_every_choice_is_legal(level: str) -> None:
    kinds: Counter[str] = Counter()
    for state, seat in positions():
        decision = state.decision_for(seat)
        assert decision is not None
        choice = think(level, state, seat)
        after = state.copy()
        after.apply(seat, choice)  # refused if illegal
        kinds[decision.kind] += 1
    assert {"main", "priority", "attack", "block"} <= set(kinds), kinds


def test_every_level_plays_a_free_for_all_to_its_end() -> None:
    """Three seats: ``hard`` plays on to its next turn past two opponents."""
    with counting_clock(0.05):  # one playout a decision
        played = play(GAME, {}, 0, [hard.choose, bot.choose, easy.choose])
    assert sorted(played.outcome.places) in ([1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1])


def test_hard_repeats_itself_under_a_counting_clock() -> None:
    for state, seat in positions()[::3]:
        assert think("hard", state, seat, 5) == think("hard", state, seat, 5)


def test_hard_double_blocks_an_attacker_its_first_strikers_kill_unharmed() -> None:
    """Two 2/2 first strikers deal 4 to a 3/3 before it strikes back: ``normal``
    sees no single blocker that survives and blocks nothing."""
    state = parse("3 p2 main // p1 20 | lib 5 | hand - | gy - | play 1 Gilded Lancer, "
                  "2 Gilded Lancer // p2 20 | lib 5 | hand - | gy - | play 3 Bloodbound Fiend")
    act(state, "attack 3")
    pass_until(state, "block", 0)
    assert bot.choose(state.copy(), 0, random.Random(1)) == "none"
    assert think("hard", state, 0) == "1>3,2>3"


def test_hard_attacks_for_lethal_past_a_blocker() -> None:
    """Three 2/2s into a 5/5 blocker with the opponent at 4: one is blocked, the
    other two are lethal. ``normal`` will not attack into a blocker that wins."""
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar, "
                  "2 Burrtusk Boar, 3 Burrtusk Boar // p2 4 | lib 5 | hand - | gy - | "
                  "play 4 Deepcoil Serpent")
    assert bot.choose(state.copy(), 0, random.Random(1)) == "end"
    assert think("hard", state, 0) == "attack"
    state.apply(0, "attack")
    assert think("hard", state, 0) == "1,2,3"


def test_unseen_deals_the_hidden_again_and_keeps_the_view() -> None:
    state = GAME.new({}, 2, 4)
    for _ in range(40):  # a few turns in
        decision = state.pending()[0]
        state.apply(decision.seat, decision.forced or GAME.bot(
            state.copy(), decision.seat, random.Random(0)))
    before = state.notation()
    pools = [Counter(state.cards[c] for c in (*p.hand, *p.library)) for p in state.players]
    hands = set()
    for deal in range(6):
        dealt = unseen(state, 0, random.Random(deal))
        assert dealt.observe(0) == state.observe(0)
        assert dealt.players[0].hand == state.players[0].hand
        assert [Counter(dealt.cards[c] for c in (*p.hand, *p.library))
                for p in dealt.players] == pools
        assert [len(p.hand) for p in dealt.players] == [len(p.hand) for p in state.players]
        hands.add(tuple(sorted(dealt.cards[c] for c in dealt.players[1].hand)))
    assert len(hands) > 1, "the other hand is dealt again"
    assert state.notation() == before, "the state itself is left alone"


def test_unseen_depends_on_what_is_unseen_not_where_it_lay() -> None:
    """Dealing again from a dealt copy gives the very same deal: a player that
    thinks on ``unseen``'s deals cannot tell the real hidden cards from others."""
    state = GAME.new({}, 2, 8)
    dealt = unseen(state, 1, random.Random(3))
    assert dealt.notation() != state.notation()
    assert unseen(dealt, 1, random.Random(7)).notation() == \
        unseen(state, 1, random.Random(7)).notation()
    assert unseen(dealt, 1, random.Random(7)).rng.random() == \
        unseen(state, 1, random.Random(7)).rng.random() != state.copy().rng.random()


def test_a_card_everyone_saw_return_to_a_hand_stays_there() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand Fold into Mist | gy - | play 1 Mistshore, "
                  "2 Mistshore // p2 20 | lib Dawnfield, Dawnfield, Dawnfield | hand Dawnfield "
                  "| gy - | play 3 Burrtusk Boar")
    act(state, "cast Fold into Mist @3")
    pass_until(state, "main", 0)
    assert 3 in state.players[1].hand
    for deal in range(8):
        assert 3 in unseen(state, 0, random.Random(deal)).players[1].hand
