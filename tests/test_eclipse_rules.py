"""Eclipse's rules beyond the judging tree: placement, the safe set, both ways
out, counterattacks, who attacks next, repairs, the hand cap, resignation,
simultaneity and secrecy (spec: ../shared/specs/eclipse.md)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.i18n import narrate, say
from rules.core import replay
from rules.eclipse import GAME as ECLIPSE
from rules.eclipse import EclipseOptions, EclipseState, choose, parse_deck
from rules.eclipse.cards import standard_deck
from rules.eclipse.placement import fits_safe_set, fits_subset, subset_kind
from rules.errors import IllegalChoice, MalformedChoice, NotYourTurn

DECK = standard_deck()
NAMES = ["Ada", "Bo", "Cy"]


def said(events: list, locale: str = "en") -> str:
    """The events' words, as the table says them."""
    return " ".join(narrate(e, NAMES, locale) for e in events)


@contextmanager
def refused(kind: type[Exception], pattern: str, locale: str = "en") -> Iterator[None]:
    """Expect ``kind`` whose words (in ``locale``) match ``pattern``."""
    with pytest.raises(kind) as caught:
        yield
    words = say(caught.value.text, locale)
    assert re.search(pattern, words), words


def cards(text: str) -> list:
    """Cards from codes; ``F`` is a follower."""
    follower = DECK.cards[-1]
    return [follower if w == "F" else DECK.card_by_code(w) for w in text.split()]


def check_census(state: EclipseState) -> None:
    census = state.census()
    assert sorted(census) == list(range(len(state.cards)))
    assert set(census.values()) == {1}


def reveal(state: EclipseState, attacker_card: str, defender_card: str) -> list:
    events = state.apply(state.attacker, attacker_card)
    events += state.apply(state.defender, defender_card)
    return events


# -- placement -------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "subset", "fits"), [
    ("S6m", "S1m", True),          # ♂: same top, same emblem (bolt)
    ("S2m", "S1m", False),         # ♂: another emblem
    ("M4m", "S1m", False),         # ♂: same emblem, other top
    ("S1f", "S1m", False),         # ♀ card in a ♂ subset
    ("S3f", "S1f", True),          # ♀: same top, both odd
    ("S2f", "S1f", False),         # ♀: parity differs
    ("M3f", "S1f", False),         # ♀: other top
    ("F", "S1m", True),            # a follower joins any subset
    ("F", "S1f F", True),
    ("S11m", "S1m S6m F F F", True),      # the sixth card
    ("F", "S1m S6m S11m F F F", False),   # full
    ("S11m", "S1m S6m F F F F", False),   # full, even for a matching card
], ids=lambda v: str(v))
def test_what_fits_a_regular_subset(card: str, subset: str, fits: bool) -> None:
    assert fits_subset(cards(card)[0], cards(subset)) is fits


def test_followers_never_start_a_subset() -> None:
    assert subset_kind(cards("F F")) is None
    assert not fits_subset(cards("F")[0], cards("F"))


@pytest.mark.parametrize(("card", "safe", "fits"), [
    ("S1m", "", True),             # any symbol card starts it
    ("M4m", "S1m", True),          # sun and moon mix in the safe set (both ♂ bolt)
    ("M5m", "S1m", False),         # ♂ rule: emblem must match
    ("M3f", "S1f", True),          # ♀ rule: odd with odd, any top
    ("M2f", "S1f", False),
    ("S1f", "S1m", False),         # its first card set ♂
    ("F", "", False),              # followers never enter it
    ("F", "S1m", False),
    ("S9m", "S4m M2m M7m S14m M12m M2f", False),   # six cards: complete
], ids=lambda v: str(v))
def test_what_fits_the_safe_set(card: str, safe: str, fits: bool) -> None:
    assert fits_safe_set(cards(card)[0], cards(safe)) is fits


def test_deposit_options_follow_the_placement_rules() -> None:
    # Seat 0 wins with S6m (sun ♂ bolt) holding two followers; seat 1 has a bolt
    # subset of 4 cards and a ♀ subset.
    state = EclipseState.position(["S6m F F", "M3m"], subsets=["", "S1m S11m F F | S1f"])
    reveal(state, "S6m", "M3m")                 # tops differ: attacker wins
    assert state.phase == "deposit" and state.pending()[0].seat == 0
    assert state.pending()[0].options == ("1", "1+1", "new", "new+1", "new+2")
    state.apply(0, "1+1")
    assert len(state.subsets[1][0].cards) == 6
    assert sum(state.cards[c].follower for c in state.hands[0]) == 1
    check_census(state)


def test_the_safe_set_offers_only_symbol_cards_that_fit() -> None:
    state = EclipseState.position(["S6m", "M3m"], subsets=["", "S1f F | M5m | M2m"],
                                  safe="S4m")  # the safe set is ♂ star
    reveal(state, "S6m", "M3m")
    state.apply(0, "new")                       # S6m (bolt) into a new subset
    decision = state.pending()[0]
    assert decision.seat == 1 and decision.kind == "safe"
    # Only the moon ♂ star fits beside the sun ♂ star; followers never do.
    assert decision.options == ("M2m", "keep")
    state.apply(1, "M2m")
    assert [state.cards[c].code for c in state.safe] == ["S4m", "M2m"]
    check_census(state)


def test_without_a_card_that_fits_the_safe_set_there_is_no_safe_step() -> None:
    state = EclipseState.position(["S6m", "M3m"], subsets=["", "S1f F | M5m"], safe="S4m",
                                  options=EclipseOptions(counterattack=0))
    reveal(state, "S6m", "M3m")
    state.apply(0, "new")
    assert (state.attacker, state.defender) == (1, 0) and state.phase == "play"


# -- the seed's worked example and simultaneity ----------------------------------------

def test_the_seeds_example_through_the_state() -> None:
    state = EclipseState.position(["S13m", "S10f"])
    events = reveal(state, "S13m", "S10f")
    assert state.phase == "numbers"
    assert [d.options for d in state.pending()] == [("1", "2", "3", "4"), ("0", "1", "2")]
    assert "S13m" not in said(events[:1])  # only "has chosen" so far
    events = state.apply(0, "4") + state.apply(1, "1")
    assert "28, even → attacker wins" in said(events)
    assert "28, par → vence o atacante" in said(events, "pt_BR")
    assert state.winner == 0 and state.last_reveal is not None
    assert state.last_reveal.numbers == (4, 1) and state.last_reveal.winner == 0
    check_census(state)


def test_a_number_out_of_range_is_refused_naming_the_range() -> None:
    """However many digits, a number is refused by what may be presented, not as "not
    a number"; other digits (٣, ４) are still no number."""
    state = EclipseState.position(["S13m", "S10f"])
    reveal(state, "S13m", "S10f")
    for typed in ("9", "99999999999999999999"):
        with refused(IllegalChoice, r"not a legal number now \(legal: 1, 2, 3, 4\)"):
            state.apply(0, typed)
        with refused(IllegalChoice, r"não é um número válido agora \(válidos: 1, 2, 3, 4\)",
                     "pt_BR"):
            state.apply(0, typed)
    with refused(MalformedChoice, "is not a number"):
        state.apply(0, "٣")
    state.apply(0, "04")  # a leading zero is still the number 4
    assert state.has_chosen(0)


def test_choice_order_does_not_matter_and_a_second_choice_is_refused() -> None:
    first = EclipseState.position(["S13m S2f M1m", "S10f S7m M9f"], deck="S4m S5m")
    second = first.copy()
    first.apply(0, "S2f")
    with refused(NotYourTurn, "already chosen"):
        first.apply(0, "S13m")
    first.apply(1, "S7m")
    second.apply(1, "S7m")
    second.apply(0, "S2f")
    assert first.notation() == second.notation()
    assert first.last_reveal == second.last_reveal


def test_held_choices_stay_secret_until_both_are_in() -> None:
    state = EclipseState.position(["S13m S2f", "S10f S7m"])
    events = state.apply(0, "S13m")
    assert [e.kind for e in events] == ["chosen"]
    for seat in (None, 0, 1):
        view = state.observe(seat)
        assert view.chosen == (0,) and view.reveal is None
    assert state.observe(None).hand is None
    assert {c.code for c in state.observe(1).hand} == {"S10f", "S7m"}
    assert "S13m" not in repr(state.observe(1))


def test_a_single_symbol_card_is_still_chosen_by_its_player() -> None:
    # Made at once, the choice would show "has chosen" at once: the rest of seat 0's
    # hand would be known to be followers.
    state = EclipseState.position(["S13m F F", "S10f S7m"])
    attack, defend = state.pending()
    assert attack.options == ("S13m",) and not attack.automatic and not defend.automatic
    state.apply(1, "S7m")
    assert state.decision_for(0) == attack and not state.has_chosen(0)
    assert state.observe(None).chosen == (1,)


def test_single_numbers_and_deposits_from_what_everyone_sees_stay_automatic() -> None:
    # Numbers follow from the two revealed cards: a ♂ shield can only present 1.
    state = EclipseState.position(["S5m", "S10f"])
    reveal(state, "S5m", "S10f")
    attacker, defender = state.pending()
    assert attacker.options == ("1",) and attacker.automatic and defender.automatic
    # A deposit's options count the followers in the winner's hand: automatic only
    # when that hand is empty, so a single option tells nothing.
    emptied = EclipseState.position(["S6m", "M3m"])
    reveal(emptied, "S6m", "M3m")
    assert emptied.pending()[0].options == ("new",) and emptied.pending()[0].automatic
    holding = EclipseState.position(["S6m S1f", "M3m"])
    reveal(holding, "S6m", "M3m")
    assert holding.pending()[0].options == ("new",) and not holding.pending()[0].automatic


def test_bad_input_is_refused_and_changes_nothing() -> None:
    state = EclipseState.position(["S13m S2f", "S10f S7m"])
    before = state.notation()
    with pytest.raises(MalformedChoice):
        state.apply(0, "banana")
    with refused(MalformedChoice, "not in your hand"):
        state.apply(0, "S10f")
    with pytest.raises(NotYourTurn):
        EclipseState.position(["S13m", "S10f", "S1m"]).apply(2, "S1m")
    assert state.apply(0, "s13M")[0].kind == "chosen"   # any case is understood
    assert state.notation() == before


# -- both ways out ----------------------------------------------------------------------

def test_a_loser_facing_a_complete_safe_set_is_out_and_takes_it() -> None:
    safe = "S4m M2m S9m M7m S14m M12m"          # six stars: complete
    state = EclipseState.position(["S6m", "M3m", "S1f"], subsets=["", "S2m", "M1f"],
                                  safe=safe)
    reveal(state, "S6m", "M3m")
    events = state.apply(0, "new")
    assert state.out == [False, True, False]
    # Out go the safe set, the two subset cards and the card just drawn.
    assert state.safe == [] and len(state.out_cards[1]) == 6 + 2 + 1
    assert "Bo is out (the safe set is complete) and takes the complete safe set" in said(events)
    assert "Bo está fora (o cofre está completo) e leva o cofre completo junto" in said(
        events, "pt_BR")
    # After an elimination the seat after the winner attacks the seat after it.
    assert (state.attacker, state.defender) == (2, 0)
    check_census(state)


@pytest.mark.parametrize("use_safe_set", [False, True])
def test_a_complete_subset_puts_the_loser_out_unless_the_safe_set_saves_them(
        use_safe_set: bool) -> None:
    state = EclipseState.position(["S6m", "M3m", "S1f"],
                                  subsets=["", "S1m S11m F F F", "M1f"])
    reveal(state, "S6m", "M3m")
    state.apply(0, "1")                          # the bolt subset now holds 6
    assert state.phase == "safe"
    assert set(state.pending()[0].options) == {"S1m", "S11m", "S6m", "keep"}
    state.apply(1, "S11m" if use_safe_set else "keep")
    assert state.out[1] is not use_safe_set
    if use_safe_set:
        assert len(state.subsets[1][0].cards) == 5
        assert (state.attacker, state.defender) == (1, 2)   # the defender attacks next
    else:
        assert (state.attacker, state.defender) == (2, 0)
        assert state.safe == []                  # an incomplete safe set stays
    check_census(state)


def test_the_last_player_standing_wins() -> None:
    state = EclipseState.position(["S6m", "M3m"], subsets=["", "S1m S11m F F F"])
    reveal(state, "S6m", "M3m")
    state.apply(0, "1")
    state.apply(1, "keep")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (1, 2)
    assert state.pending() == ()


def test_the_attacker_out_lets_the_seat_after_the_winner_attack() -> None:
    # Seat 0 attacks with a bolt subset of five and loses to a shield.
    state = EclipseState.position(["M4m", "M3m", "S1f", "S2f"],
                                  subsets=["S1m S11m F F F", "", "M1f", "M2f"],
                                  options=EclipseOptions(counterattack=0))
    reveal(state, "M4m", "M3m")                  # same top, ♂: shield beats bolt
    assert state.winner == 1
    state.apply(1, "new")
    state.apply(0, "keep")
    assert state.out[0] is False                 # no subset of six yet: still in
    assert (state.attacker, state.defender) == (1, 2)


def test_a_normal_hand_passes_the_attack_to_the_defender() -> None:
    state = EclipseState.position(["S6m", "M3m", "S1f"], options=EclipseOptions(
        counterattack=0))
    reveal(state, "S6m", "M3m")
    state.apply(0, "new")
    if state.phase == "safe":
        state.apply(1, "keep")
    assert (state.attacker, state.defender) == (1, 2)


def test_when_the_defender_is_out_the_seat_after_the_winner_attacks() -> None:
    state = EclipseState.position(["S6m", "M3m", "S1f", "S2f"],
                                  subsets=["", "S1m S11m F F F", "M1f", "M2f"])
    reveal(state, "S6m", "M3m")
    state.apply(0, "1")
    state.apply(1, "keep")
    assert state.out[1]
    assert (state.attacker, state.defender) == (2, 3)


# -- counterattacks -----------------------------------------------------------------------

def counterattack_position() -> EclipseState:
    # Seat 0 attacks with three cards in front; seat 1 has a bolt subset.
    state = EclipseState.position(["S6m M14m", "M3m S4m", "M1f"],
                                  subsets=["S2m S7m F", "S1m", ""], deck="S8f S9f S10f")
    assert state.phase == "counter"
    state.apply(0, "counter")
    state.apply(0, "F@1")
    assert state.pending()[0].options == ("2:1",)    # a follower joins an existing subset
    state.apply(0, "2:1")
    state.apply(0, "S2m")
    state.apply(0, "3:new")
    state.apply(0, "S7m")
    assert "2:new" in state.pending()[0].options and "3:1" in state.pending()[0].options
    state.apply(0, "3:1")                        # S7m joins S2m (both sun ♂ cog)
    assert state.phase == "play"
    assert [len(s.cards) for s in state.subsets[1]] == [2]
    assert [len(s.cards) for s in state.subsets[2]] == [2]
    assert state.subsets[0] == []
    check_census(state)
    return state


def test_a_successful_counterattack_leaves_the_cards_with_their_hosts() -> None:
    state = counterattack_position()
    reveal(state, "S6m", "M3m")                  # the attacker wins
    state.apply(0, "new")
    if state.phase == "safe":
        state.apply(1, "keep")
    assert [len(s.cards) for s in state.subsets[2]] == [2]
    assert sum(len(s.cards) for s in state.subsets[1]) == 3   # S1m F + the deposit
    assert (state.attacker, state.defender) == (1, 2)
    check_census(state)


def test_a_failed_counterattack_returns_the_cards_and_each_host_gives_one() -> None:
    state = counterattack_position()
    reveal(state, "M14m", "M3m")                 # moon ♂: the defender's shield beats bolt
    assert state.winner == 1
    state.apply(1, "new")                        # M3m into a new subset in front of seat 0
    if state.phase == "safe":
        state.apply(0, "keep")
    # The three cards come home: S2m and S7m and the follower rejoin their subset.
    home = [sorted(state.cards[c].code for c in s.cards) for s in state.subsets[0]]
    assert ["F", "S2m", "S7m"] in home
    # Hosts 1 and 2 each give one card, in seat order from the attacker.
    assert state.phase == "give-card" and state.pending()[0].seat == 1
    assert state.pending()[0].options == ("S1m",)
    state.apply(1, "S1m")
    assert "new" in state.pending()[0].options
    state.apply(1, "new")
    # Seat 2 hosted nothing any more (its cards went home) and has no subsets: skipped.
    assert state.subsets[2] == []
    assert (state.attacker, state.defender) == (1, 2)
    check_census(state)


# -- repairs, empty decks, the cap ---------------------------------------------------------

def test_a_hand_of_followers_is_repaired_before_playing() -> None:
    state = EclipseState.position(["F F", "S1m"], deck="F S5m")
    hand = sorted(state.cards[c].code for c in state.hands[0])
    assert "S5m" in hand and len(state.hands[0]) == 2
    assert any(e.kind == "repair" for e in state.opening_events)
    check_census(state)


TINY = parse_deck("tiny", "S1m:bolt S2m:cog S3m:shield S4m:star M4m:star Fx6")
SAFE_SIX = "S1f S3f S5f M1f M3f M5f"
"""A complete ♀ odd safe set."""
WITH_SAFE_SET = parse_deck("safe", "S1f:shield S3f:bolt S5f:cog M1f:star M3f:shield "
                                   "M5f:bolt S2m:cog S4m:star Fx6")


def test_without_a_symbol_card_to_play_the_hand_is_lost() -> None:
    state = EclipseState.position(["F", "S1m", "S4m"], subsets=["S2m", "S3m", "M4m"],
                                  card_deck=TINY)
    # The deck holds only followers: the attacker cannot play and loses; the
    # defender keeps its card, and nothing is deposited.
    assert state.last_reveal is not None and state.last_reveal.winner == 1
    assert "no symbol card" in say(state.last_reveal.judging[0], "en")
    assert [state.cards[c].code for c in state.hands[1]] == ["S1m"]
    assert [[state.cards[c].code for c in s.cards] for s in state.subsets[0]] == [["S2m"]]
    assert state.phase == "safe" and state.pending()[0].seat == 0
    check_census(state)


def test_when_neither_can_play_the_defender_wins_and_the_game_goes_on() -> None:
    # Nobody next to seat 2 holds a symbol card and the deck has none: once, that
    # ended the game. Now the hand is played out: the tie goes to the defender.
    state = EclipseState.position(["F", "F", "S1m S2m"], subsets=["S3m", "M4m", "S4m"],
                                  card_deck=TINY)
    assert not state.over
    assert state.last_reveal is not None and state.last_reveal.winner == 1
    assert [len(s.cards) for s in state.subsets[1]] == [1]      # nothing deposited
    assert state.phase == "safe" and state.pending()[0].seat == 0
    state.apply(0, "keep")
    # Seat 1 attacks seat 2 without a symbol card: it loses, seat 2 keeps both cards.
    assert (state.attacker, state.defender) == (1, 2)
    assert state.last_reveal.winner == 2 and len(state.hands[2]) == 2
    assert state.phase == "safe" and state.pending()[0].seat == 1
    check_census(state)


def test_a_complete_safe_set_puts_out_a_player_who_cannot_play() -> None:
    # Seat 1 attacks with followers only; the holders of symbol cards (seats 0 and 2)
    # are not neighbours and the deck has none: no hand is played with two cards.
    state = EclipseState.position(["S2m F", "F", "S4m", "F"], safe=SAFE_SIX,
                                  card_deck=WITH_SAFE_SET, attacker=1)
    assert state.out == [False, True, False, False] and state.safe == []
    assert state.eliminated == [1] and len(state.out_cards[1]) == 6 + 1 + 1
    # Then seat 3 (after the winner) attacked seat 0 and lost without a card; now
    # seat 0 attacks seat 2, past the empty seat, and both hold a symbol card.
    assert state.hands_played == 2 and not state.over
    assert (state.attacker, state.defender, state.phase) == (0, 2, "play")
    check_census(state)


def test_games_where_nobody_can_play_end_at_the_hand_cap() -> None:
    # Nobody holds a symbol card, the deck has none, nobody has cards in front: every
    # hand goes to the defender without a decision, up to the cap, and no further.
    deck = parse_deck("bare", "S1m:bolt Fx8")
    state = EclipseState.position(["F", "F", "F"], safe="S1m", card_deck=deck)
    outcome = state.outcome()
    assert outcome is not None and state.hands_played == 400
    assert say(outcome.reason, "en") == (
        "400 hands played: fewest cards in front, ties by seat order")
    # Equal counts: seat order from the player who would attack next.
    first = state.attacker
    assert [outcome.places[(first + k) % 3] for k in range(3)] == [1, 2, 3]
    assert outcome.scores == (0, 0, 0)
    check_census(state)


def play_out(state: EclipseState) -> EclipseState:
    """Play to the end: each seat takes the first option, keeps out of the safe set."""
    while not state.over:
        decision = state.pending()[0]
        state.apply(decision.seat, "keep" if "keep" in decision.options
                    else decision.options[0])
    return state


def test_the_hand_cap_ends_the_game_by_fewest_cards_in_front() -> None:
    state = ECLIPSE.new({"hand_cap": 10, "counterattack": 0}, 4, seed=3)
    rng = random.Random(3)
    while not state.over:
        decision = state.pending()[0]
        state.apply(decision.seat, rng.choice(decision.options))
    outcome = state.outcome()
    assert outcome is not None
    assert say(outcome.reason, "en").startswith("10 hands played: fewest cards")
    assert state.hands_played == 10
    live = [s for s in range(4) if not state.out[s]]
    in_front = {s: sum(len(x.cards) for x in state.subsets[s]) for s in live}
    ranked = sorted(live, key=lambda s: outcome.places[s])
    assert [in_front[s] for s in ranked] == sorted(in_front.values())
    assert sorted(outcome.places) == [1, 2, 3, 4]
    assert outcome.scores == tuple(in_front.get(s, 0) for s in range(4))
    tied = len(set(in_front.values())) < len(live)
    assert say(outcome.reason, "en").endswith(", ties by seat order") is tied


def test_at_the_hand_cap_players_out_rank_below_the_others() -> None:
    # Seat 1 goes out at once (see above); seat 0 has the most cards in front but is
    # still in, so it ranks above seat 1. Seat 1's score is what lay in front of it.
    deck = parse_deck("more", " ".join(c.code + ":" + c.emblem for c in WITH_SAFE_SET.cards
                                       if not c.follower) + " M6m:shield M7f:star Fx6")
    state = EclipseState.position(["S2m F", "F", "S4m", "F"], safe=SAFE_SIX,
                                  subsets=["M6m F F", "F M7f", "", ""],
                                  card_deck=deck, attacker=1,
                                  options=EclipseOptions(hand_cap=10, counterattack=0))
    assert state.eliminated == [1]
    outcome = play_out(state).outcome()
    assert outcome is not None and state.eliminated == [1]
    assert outcome.places[1] == 4 and outcome.places[0] == 3
    assert outcome.scores is not None and outcome.scores[1] == 2 and outcome.scores[0] == 3
    assert say(outcome.reason, "en").startswith("10 hands played")


# -- resignation, replay, options ------------------------------------------------------------

def test_resigning_takes_a_seat_out_and_the_game_goes_on() -> None:
    state = EclipseState.position(["S13m S2f", "S10f S7m", "M1m M2m"])
    state.apply(0, "S13m")
    state.resign(1)                              # the defender leaves mid-hand
    assert state.out[1] and state.hands[0] and len(state.hands[0]) == 2
    assert (state.attacker, state.defender) == (0, 2) and state.phase == "play"
    state.resign(2)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (1, 3, 2)
    assert say(outcome.reason, "en", NAMES) == "last player standing after Cy left the game"
    assert say(outcome.reason, "pt_BR", NAMES) == (
        "último jogador que sobrou depois que Cy saiu do jogo")
    assert outcome.scores is None
    check_census(state)


def test_players_out_rank_by_when_they_went_out_the_first_one_last() -> None:
    # Seat 1 is eliminated first (complete safe set), then seats 3 and 0 resign.
    state = EclipseState.position(["S2m F", "F", "S4m", "F"], safe=SAFE_SIX,
                                  card_deck=WITH_SAFE_SET, attacker=1)
    state.resign(3)
    assert not state.over
    state.resign(0)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.places == (2, 4, 1, 3)
    assert say(outcome.reason, "en", NAMES) == "last player standing after Ada left the game"


def test_the_last_player_standing_by_elimination_ranks_the_others_by_exit() -> None:
    state = EclipseState.position(["S6m", "M3m", "S1f"], subsets=["", "S1m S11m F F F", "M1f"],
                                  options=EclipseOptions(counterattack=0))
    state.resign(2)
    reveal(state, "S6m", "M3m")
    state.apply(0, "1")
    state.apply(1, "keep")                       # a complete subset: seat 1 is out
    outcome = state.outcome()
    assert outcome is not None and outcome.places == (1, 2, 3)
    assert say(outcome.reason, "en") == "last player standing" and outcome.scores is None


def test_a_game_replays_exactly_from_its_choices() -> None:
    state = ECLIPSE.new({}, 3, seed=11)
    log = []
    for _ in range(120):
        if state.over:
            break
        decision = state.pending()[0]
        choice = choose(state.copy(), decision.seat, random.Random(len(log)))
        state.apply(decision.seat, choice)
        log.append((decision.seat, choice))
    again = replay(ECLIPSE, {}, 3, 11, log)
    assert again.notation() == state.notation()


def test_options_are_checked() -> None:
    assert EclipseOptions.parse({"hand-cap": "50"}).hand_cap == 50
    for bad in ({"hand_cap": 5}, {"counterattack": 13}, {"colour": 1}, {"deck": "x"}):
        with pytest.raises(ValueError):
            EclipseOptions.parse(bad)


def test_the_standard_deck_has_72_distinct_cards() -> None:
    assert [c.id for c in DECK.cards] == list(range(72))
    assert len({c.code for c in DECK.cards if not c.follower}) == 60


def test_illegal_places_are_refused() -> None:
    state = EclipseState.position(["S6m", "M3m"], subsets=["", "S2f"])
    reveal(state, "S6m", "M3m")
    with refused(IllegalChoice, "legal"):
        state.apply(0, "1")                      # S6m (♂) cannot join a ♀ subset


# -- a player knocked out ---------------------------------------------------------------

def _knockouts(seeds: range) -> list[tuple[EclipseState, int, list]]:
    """Hands of computer games where the seat that lost, with cards left in the deck,
    went out: the state after, the seat, and every event of the hand up to then (the
    reveal, the winner's deposit and the safe-set step are steps of their own)."""
    found = []
    for seed in seeds:
        state = ECLIPSE.new({}, 3, seed)
        rng = random.Random(seed)
        hand: list = []
        while not state.over:
            decision = state.pending()[0]
            deck = len(state.deck)
            for event in state.apply(decision.seat, choose(state, decision.seat, rng)):
                hand = [] if event.kind == "attack" else hand
                hand.append(event)
                if event.kind == "out" and deck:
                    found.append((state.copy(), event.data["seat"], list(hand)))
    return found


def test_a_player_knocked_out_is_not_told_they_draw_and_their_view_says_out() -> None:
    """The loser of a hand draws (spec step 4) and may then go out (steps 5–6), the
    card leaving with them; a loser who goes out is never told of that draw, nor is
    anyone else, and their view says they are out, not "Your hand: no symbol cards"."""
    found = _knockouts(range(12))
    assert len(found) >= 5
    for state, seat, events in found:
        won = max(i for i, e in enumerate(events) if e.kind in ("wins", "no-card"))
        assert not _drawn_by(events[won:], seat), said(events)
        text = say(ECLIPSE.text(state.observe(seat), NAMES), "en")
        assert "You are out of the game" in text and "Your hand" not in text
        check_census(state)


def _drawn_by(events: list, seat: int) -> list:
    return [e for e in events if e.kind in ("draw", "drawn")
            and (e.data.get("seat") == seat or e.seats == frozenset({seat}))]


def test_a_loser_who_goes_out_takes_the_card_drawn_untold() -> None:
    """The card a loser draws is the one on top when the hand is lost (so games replay
    as they did): a loser put out by the complete safe set takes it with them."""
    state = EclipseState.position(["S13m S2f", "M10f M7m"], safe="S1f S3f S5f M1f M3f M5f")
    top = state.deck[0]
    events = reveal(state, "S13m", "M10f")       # tops differ: the attacker wins
    assert state.phase == "deposit" and state.drawing == top and top not in state.hands[1]
    check_census(state)
    events += state.apply(0, "new")
    assert state.out[1] and top in state.out_cards[1] and state.drawing is None
    assert not _drawn_by(events, 1), said(events)
    check_census(state)


def test_a_loser_who_stays_in_is_told_of_the_draw_once_sure_to() -> None:
    state = EclipseState.position(["S13m S2f", "M10f M7m"])
    top = state.deck[0]
    events = reveal(state, "S13m", "M10f")
    events += state.apply(0, "new")              # the safe-set step is the loser's
    assert state.phase == "safe" and not _drawn_by(events, 1)
    told = state.apply(1, "keep")
    assert top in state.hands[1] and state.drawing is None
    assert [e.kind for e in _drawn_by(told, 1)] == ["draw", "drawn"]
    assert f"You draw {say(state.card(top).shown, 'en')}." in said(
        [e for e in told if e.kind == "drawn"])
    check_census(state)


def test_names_stay_as_typed_in_every_language() -> None:
    """A name is a value, never a template: braces and markdown show as typed in each
    language, in the narration and in the table in words."""
    hostile = ["{who} **Ada**", "{s0} {count}"]
    state = EclipseState.position(["S13m S2f", "M10f M7m"])
    events = reveal(state, "S13m", "M10f")
    for locale in ("en", "pt_BR"):
        narrated = " ".join(narrate(e, hostile, locale) for e in events)
        assert "{who} **Ada**" in narrated and "{s0} {count}" in narrated
        table = say(ECLIPSE.text(state.observe(0), hostile), locale)
        assert table.count("{who} **Ada**") >= 2 and "{s0} {count}" in table
