"""Arcane Duel's optional ante, in the rules: each player's top library card is set
aside after the shuffle and before the opening hand, face up for everyone, and never
comes back into the game. Without the option nothing changes; with it the duel deals
exactly as it would have, one card further down each library, and replays exactly."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest

from bot.i18n import narrate, say
from rules.core import RESIGN, replay
from rules.duel import GAME, DuelOptions, table_words
from rules.duel.bot import choose
from rules.duel.decks import STARTERS, starter
from rules.duel.notation import parse, render
from rules.duel.state import DuelState, DuelView
from rules.errors import BadOptions, MalformedChoice


def ante_line(view: DuelView, names: list[str]) -> str:
    """The table's ante line, in English."""
    return say(table_words.ante_line(view, names), "en")


def render_text(view: DuelView, names: list[str]) -> str:
    """The table in words, in English."""
    return say(table_words.render_text(view, names), "en")


NAMES = ["Ada", "Bo", "Cy", "Di"]
DECKS = [{"deck": "ember-and-grove"}, {"deck": "night-and-ember"}]
"""Two different starter decks, so that each seat's ante is its own deck's card."""


def duel(seed: int, *, ante: bool, seats: int = 2) -> DuelState:
    state = GAME.new({"ante": ante}, seats, seed,
                     [{"deck": list(STARTERS)[k]} for k in range(seats)] if seats > 2
                     else DECKS)
    assert isinstance(state, DuelState)
    return state


def zones_hold_every_card_once(state: DuelState) -> None:
    """Every card in exactly one zone, the ante counted as one."""
    zones: Counter[int] = Counter()
    for player in state.players:
        zones.update([*player.library, *player.hand, *player.graveyard, *player.removed])
        if player.ante is not None:
            zones[player.ante] += 1
    zones.update(list(state.battlefield))
    zones.update(item.id for item in state.stack if item.spell)
    assert set(zones) == set(state.cards)
    assert max(zones.values()) == 1


# -- the option ------------------------------------------------------------------------------
@pytest.mark.parametrize(("given", "ante"), [({}, False), ({"ante": "yes"}, True),
                                             ({"ante": "no"}, False), ({"ante": True}, True),
                                             ({"ante": "on"}, True), ({"ante": "off"}, False)])
def test_the_ante_option_is_off_by_default_and_reads_yes_and_no(given: dict, ante: bool) -> None:
    assert DuelOptions.parse(given).ante is ante


def test_a_wrong_ante_value_is_refused_by_name() -> None:
    with pytest.raises(BadOptions, match="ante"):
        DuelOptions.parse({"ante": "maybe"})


def test_the_option_is_described_for_every_surface() -> None:
    spec = next(s for s in DuelOptions.specs() if s.name == "ante")
    assert spec.kind == "yes/no" and spec.default is False
    assert "ante" in spec.description and len(spec.description) <= 100  # Discord's limit


# -- without ante ----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_without_ante_nothing_changes(seed: int) -> None:
    plain = GAME.new({}, 2, seed, DECKS)
    off = duel(seed, ante=False)
    assert isinstance(plain, DuelState)
    assert off.notation() == plain.notation()
    assert off.ante == (None, None)
    assert all(len(p.library) == 40 - 7 for p in off.players)
    assert off.observe(None).ante == (None, None)
    assert "Ante" not in render_text(off.observe(0), NAMES)
    assert ante_line(off.observe(None), NAMES) == ""
    assert not any(e.kind == "ante" for e in off.opening_events)
    assert "ante" not in off.notation()


# -- with ante -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_the_ante_is_the_top_card_after_the_shuffle_and_the_hand_the_next_seven(
        seed: int) -> None:
    plain, anted = duel(seed, ante=False), duel(seed, ante=True)
    assert anted.active == plain.active  # setting aside draws no random number
    for seat in range(2):
        before, after = plain.players[seat], anted.players[seat]
        # The duel without ante drew its top seven: the first of them is the ante here.
        assert after.ante == before.hand[0]
        assert after.hand == [*before.hand[1:], before.library[0]]
        assert after.library == before.library[1:]
        assert len(after.library) == len(before.library) - 1
        assert after.ante not in after.graveyard and after.ante not in after.removed
        assert anted.ante[seat] == anted.cards[after.ante] == plain.cards[before.hand[0]]
    zones_hold_every_card_once(anted)


def test_each_seat_sets_aside_a_card_of_its_own_deck() -> None:
    state = duel(3, ante=True)
    for seat, name in enumerate(state.ante):
        assert name is not None
        assert state.owners[state.players[seat].ante] == seat
        assert name in starter(DECKS[seat]["deck"])


def test_the_opening_events_say_who_set_aside_what() -> None:
    state = duel(2, ante=True)
    said = [narrate(e, NAMES, "en") for e in state.opening_events if e.kind == "ante"]
    assert said == [f"Ada sets aside {state.ante[0]} for ante.",
                    f"Bo sets aside {state.ante[1]} for ante."]
    assert all(e.public for e in state.opening_events if e.kind == "ante")


def test_every_seat_and_a_spectator_see_both_antes() -> None:
    state = duel(4, ante=True)
    line = f"Ante: {state.ante[0]} (Ada) · {state.ante[1]} (Bo)"
    for seat in (0, 1, None):
        view = state.observe(seat)
        assert view.ante == state.ante
        assert ante_line(view, NAMES) == line
        assert line in render_text(view, NAMES).splitlines()


def test_a_free_for_all_sets_aside_one_card_a_player() -> None:
    state = duel(1, ante=True, seats=3)
    assert all(name is not None for name in state.ante) and len(state.ante) == 3
    assert all(len(p.library) == 40 - 8 for p in state.players)
    assert ante_line(state.observe(None), NAMES).count("(") == 3


def test_a_copy_keeps_the_ante_and_is_independent() -> None:
    state = duel(5, ante=True)
    twin = state.copy()
    assert twin.ante == state.ante
    twin.players[0].ante = None
    assert state.ante[0] is not None


# -- the notation ----------------------------------------------------------------------------
POSITION = ("2 p1 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak | "
            "ante Burrtusk Boar // p2 20 | lib 3 | hand - | gy - | play - | ante Rushing Sap")


def test_a_position_carries_the_ante_and_writes_it_back() -> None:
    state = parse(POSITION)
    assert state.ante == ("Burrtusk Boar", "Rushing Sap")
    written = render(state)
    assert written.endswith("| play - | ante Rushing Sap")
    assert render(parse(written)) == written
    zones_hold_every_card_once(state)


def test_a_duel_for_ante_writes_its_ante_and_reads_back_the_same() -> None:
    state = duel(7, ante=True)
    assert render(parse(state.notation())) == state.notation()
    assert parse(state.notation()).ante == state.ante


@pytest.mark.parametrize(("text", "named"), [
    ("1 p1 main // p1 20 | ante Nothing Such // p2 20", "no card 'Nothing Such'"),
    ("1 p1 main // p1 20 | ante // p2 20", "ante is one card"),
    ("1 p1 main // p1 20 | ante Ashpeak | ante Ashpeak // p2 20", "'ante' twice"),
])
def test_a_wrong_ante_in_a_position_is_refused(text: str, named: str) -> None:
    with pytest.raises(MalformedChoice, match=named):
        parse(text)


# -- whole duels -----------------------------------------------------------------------------
def play_out(state: DuelState, seed: int) -> list[tuple[int, str]]:
    """Computer against computer until the duel ends; the choices made."""
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    ante = state.ante
    for _ in range(20_000):
        pending = state.pending()
        if not pending:
            break
        seat = pending[0].seat
        choice = state.canonical(seat, choose(state, seat, random.Random(rng.random())))
        state.apply(seat, choice, checked=True)
        log.append((seat, choice))
        zones_hold_every_card_once(state)
        assert state.ante == ante  # nothing in the game reaches the ante
    return log


@pytest.mark.parametrize("seed", range(3))
def test_a_computer_duel_for_ante_finishes_and_replays_with_the_same_ante(seed: int) -> None:
    state = duel(seed, ante=True)
    ante = state.ante
    log = play_out(state, seed)
    assert state.over and state.outcome() is not None
    again = replay(GAME, {"ante": "yes"}, 2, seed, log, DECKS)
    assert isinstance(again, DuelState)
    assert again.ante == ante
    assert again.notation() == state.notation()
    assert again.outcome() == state.outcome()


# -- who keeps the ante --------------------------------------------------------------------
def test_a_forfeit_says_who_wins_the_ante_by_name_for_everyone() -> None:
    state = duel(3, ante=True)
    ada, bo = state.ante
    events = state.apply(1, RESIGN)
    won = [e for e in events if e.kind == "ante-won"]
    assert len(won) == 1 and won[0].public
    assert won[0].data == {"seat": 0, "cards": (ada, bo)}  # keys and arguments
    said = f"Ada wins the ante: {ada} (Ada's own) and {bo} (from Bo)."
    assert narrate(won[0], NAMES, "en") == said
    for seat in (0, 1, None):
        view = state.observe(seat)
        assert ante_line(view, NAMES) == said.rstrip(".")
        assert said.rstrip(".") in render_text(view, NAMES)


def test_a_draw_says_every_staked_card_goes_back() -> None:
    """Both at 0 life when the main phase ends: both lose at once, a draw."""
    state = parse("2 p1 main // p1 0 | lib 3 | hand - | gy - | play - | ante Burrtusk Boar "
                  "// p2 0 | lib 3 | hand - | gy - | play - | ante Rushing Sap")
    events = state.apply(0, "end")
    assert state.outcome() is not None and state.outcome().is_draw
    said = [narrate(e, NAMES, "en") for e in events if e.kind.startswith("ante-")]
    back = "No one wins the ante: Burrtusk Boar goes back to Ada and Rushing Sap to Bo."
    assert said == [back]
    assert ante_line(state.observe(1), NAMES) == back.rstrip(".")


def test_a_duel_without_ante_says_nothing_of_it_at_the_end() -> None:
    state = duel(3, ante=False)
    events = state.apply(0, RESIGN)
    assert not [e for e in events if e.kind.startswith("ante")]
    assert ante_line(state.observe(None), NAMES) == ""


def test_the_terminal_says_who_won_the_ante() -> None:
    from rich.console import Console

    from bot.games.duel.terminal import duel_view

    state = duel(3, ante=True)
    ada, bo = state.ante
    state.apply(0, RESIGN)
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(duel_view(state.observe(0), NAMES))
    assert f"Bo wins the ante: {ada} (from Ada) and {bo} (Bo's own)" in console.export_text()
