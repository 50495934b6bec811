"""Arcane Duel's scenario notation (:mod:`rules.duel.notation`, spec "Scenario notation"):
positions read and written both ways, positions reached in real play written and read
back, malformed positions refused with :class:`MalformedChoice` (and generated text thrown
at the reader), the short action notation, and every example of ``docs/duel-notation.md``
read and played, so the documentation cannot rot."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.duel import GAME
from rules.duel.bot import choose
from rules.duel.notation import act, parse, pass_until, render
from rules.duel.state import DuelState
from rules.errors import MalformedChoice

DOC = Path(__file__).resolve().parent.parent / "docs" / "duel-notation.md"
PROFILE = settings(max_examples=300, deadline=None, derandomize=True, database=None)
QUIET = " | hand - | gy - | play -"
"""The end of a player with nothing in hand, graveyard or play."""


def rewritten(text: str) -> str:
    """``text`` read and written; asserts that reading what was written and writing
    it again gives the same text (the round trip)."""
    written = render(parse(text))
    assert render(parse(written)) == written
    return written


def names(state: DuelState, cids: list[int]) -> list[str]:
    return [state.cards[c] for c in cids]


def asked(state: DuelState) -> tuple[int, str]:
    """Who decides now, and the kind of decision."""
    decision = state.pending()[0]
    return decision.seat, decision.kind


def both_pass(state: DuelState) -> None:
    """Pass priority until the stack is empty (the window stays open)."""
    while state.stack:
        act(state, "pass")


# -- positions written by hand: every field and flag, read as written and round-tripped --
Probe = Callable[[DuelState], Any]
POSITIONS: dict[str, tuple[str, Probe, Any]] = {
    "lib as a count": (
        "1 p1 main // p1 20 | lib 3 | hand - | gy - | play - // p2 20 | lib 0" + QUIET,
        lambda s: (names(s, s.players[0].library), s.players[1].library),
        (["Dawnfield"] * 3, [])),
    "lib by name, top first": (
        "2 p1 main // p1 20 | lib Kindlewhip, Ashpeak, Mossvale" + QUIET + " // p2 20 | lib 1"
        + QUIET,
        lambda s: names(s, s.players[0].library), ["Kindlewhip", "Ashpeak", "Mossvale"]),
    "hand, with copies": (
        "3 p1 main // p1 20 | lib 1 | hand Ashpeak, Kindlewhip, Ashpeak | gy - | play - // "
        "p2 20 | lib 1" + QUIET,
        lambda s: (names(s, s.players[0].hand), list(s.hand_labels(0))),
        (["Ashpeak", "Kindlewhip", "Ashpeak"], ["Ashpeak", "Kindlewhip", "Ashpeak 2"])),
    "graveyards": (
        "4 p2 main // p1 20 | lib 1 | hand - | gy Kindlewhip, Corpse-Fed Might | play - // "
        "p2 20 | lib 1 | hand - | gy Wayfarer's Cairn | play -",
        lambda s: (names(s, s.players[0].graveyard), names(s, s.players[1].graveyard)),
        (["Kindlewhip", "Corpse-Fed Might"], ["Wayfarer's Cairn"])),
    "tapped and sick": (
        "5 p1 main // p1 20 | lib 1 | hand - | gy - | play 1 Ashpeak T, 2 Burrtusk Boar S, "
        "3 Cragborn Raider T S // p2 20 | lib 1" + QUIET,
        lambda s: [(p.tapped, p.sick) for p in s.battlefield.values()],
        [(True, False), (False, True), (True, True)]),
    "damage and shields": (
        "6 p1 main // p1 20 | lib 1 | hand - | gy - | play 1 Peatbog Revenant D2 R1, "
        "2 Sodden Rootbeast T D1 R2 // p2 20 | lib 1" + QUIET,
        lambda s: [(p.damage, p.shields) for p in s.battlefield.values()], [(2, 1), (1, 2)]),
    "auras on either side": (
        "7 p1 main // p1 20 | lib 1 | hand - | gy - | play 1 Slagfoot Brute, "
        "2 Kiln-Tempered Edge @1, 3 Everbloom Moss S @4 // p2 20 | lib 1 | hand - | gy - | "
        "play 4 Burrtusk Boar, 5 Gnawing Rust @6, 6 Sparkwheel Turret T",
        lambda s: {p.id: (p.attached, p.controller) for p in s.battlefield.values()},
        {1: (None, 0), 2: (1, 0), 3: (4, 0), 4: (None, 1), 5: (6, 1), 6: (None, 1)}),
    "every flag at once": (
        "8 p1 main // p1 20 | lib 1 | hand - | gy - | play 1 Sodden Rootbeast T S D2 R1, "
        "2 Oakhide Mantle T S D1 R1 @1 // p2 20 | lib 1" + QUIET,
        lambda s: [(p.tapped, p.sick, p.damage, p.shields, p.attached)
                   for p in s.battlefield.values()],
        [(True, True, 2, 1, None), (True, True, 1, 1, 1)]),
    "pool": (
        "9 p1 main // p1 20 | lib 1" + QUIET + " | pool RRG // p2 20 | lib 1" + QUIET
        + " | pool W",
        lambda s: (s.players[0].pool, s.players[1].pool), ({"R": 2, "G": 1}, {"W": 1})),
    "land-played and manual": (
        "10 p2 main // p1 20 | lib 1" + QUIET + " | manual // p2 20 | lib 1 | hand - | gy - | "
        "play 1 Mossvale S | land-played | manual",
        lambda s: [(p.land_played, p.auto_pass) for p in s.players],
        [(False, False), (True, False)]),
    "life of any size": (
        "11 p2 end // p1 0 | lib 1" + QUIET + " // p2 137 | lib 1" + QUIET,
        lambda s: [p.life for p in s.players], [0, 137]),
    "three players": (
        "12 p3 main // p1 8 | lib 1" + QUIET + " // p2 15 | lib 1" + QUIET + " // p3 3 | lib 1 | "
        "hand Kindlewhip | gy - | play 1 Ashpeak",
        lambda s: (s.seats, s.active, asked(s)), (3, 2, (2, "main"))),
    "four players": (
        "1 p4 upkeep // p1 20 | lib 1" + QUIET + " // p2 20 | lib 1" + QUIET + " // p3 20 | lib 1"
        + QUIET + " // p4 20 | lib 1" + QUIET,
        lambda s: (s.seats, s.active), (4, 3)),
}
for _phase in ("upkeep", "draw", "main", "discard", "end"):
    for _seat in (1, 2):
        POSITIONS[f"{_phase}, p{_seat} active"] = (
            f"5 p{_seat} {_phase} // p1 19 | lib 2 | hand Kindlewhip | gy - | play 1 Ashpeak // "
            f"p2 18 | lib 2 | hand Rushing Sap | gy - | play 2 Mossvale",
            lambda s: (s.phase, s.active, asked(s)),
            (_phase, _seat - 1, (_seat - 1, "main" if _phase == "main" else "priority")))


@pytest.mark.parametrize("text", [t for t, _, _ in POSITIONS.values()], ids=list(POSITIONS))
def test_a_position_written_and_read_again_is_the_same_text(text: str) -> None:
    rewritten(text)


@pytest.mark.parametrize(("text", "probe", "expected"), list(POSITIONS.values()),
                         ids=list(POSITIONS))
def test_a_position_reads_as_written(text: str, probe: Probe, expected: Any) -> None:
    assert probe(parse(text)) == expected


CANONICAL = [
    "2 p1 main // p1 20 | lib Kindlewhip, Ashpeak | hand - | gy - | play 1 Ashpeak T // "
    "p2 20 | lib Mossvale | hand - | gy Kindlewhip | play 2 Mossvale S",
    "9 p2 discard // p1 3 | lib - | hand Ashpeak, Ashpeak | gy - | play 1 Sodden Rootbeast T S D2 "
    "R1, 2 Oakhide Mantle @1 | pool BGR | land-played | manual // p2 -2 | lib Murkfen | hand - "
    "| gy Wayfarer's Cairn, Corpse-Fed Might | play 3 Murkfen T",
    "1 p3 end // p1 20 | lib - | hand - | gy - | play - // p2 20 | lib - | hand - | gy - | "
    "play - // p3 20 | lib Ashpeak | hand Kindlewhip | gy - | play 1 Ashpeak T | land-played",
]


@pytest.mark.parametrize("text", CANONICAL, ids=lambda t: t[:20])
def test_a_canonical_position_is_written_back_exactly(text: str) -> None:
    assert render(parse(text)) == text


def test_render_writes_fields_and_flags_in_one_order() -> None:
    state = parse("3 p2 draw // p1 20 | manual | pool GRB | land-played | play 1 Oakhide Mantle "
                  "@2 R1 D1 S T, 2 Burrtusk Boar | gy Kindlewhip | hand Ashpeak | lib 1 "
                  "// p2 20 | lib 1")
    assert render(state) == (
        "3 p2 draw // p1 20 | lib Dawnfield | hand Ashpeak | gy Kindlewhip | "
        "play 1 Oakhide Mantle T S D1 R1 @2, 2 Burrtusk Boar | pool BGR | land-played | manual"
        " // p2 20 | lib Dawnfield | hand - | gy - | play -")


def test_cards_off_the_battlefield_are_numbered_after_the_permanents_in_order() -> None:
    state = parse("1 p1 main // p1 20 | lib Ashpeak | hand Kindlewhip | gy Mossvale | "
                  "play 7 Ashpeak // p2 20 | lib Murkfen | hand Rushing Sap | gy - | "
                  "play 3 Mossvale")
    assert state.players[0].library == [8] and state.players[0].hand == [9]
    assert state.players[0].graveyard == [10]
    assert (state.players[1].library, state.players[1].hand) == ([11], [12])
    assert state.cards[12] == "Rushing Sap" and state.owners[12] == 1


def test_a_comment_is_ignored_and_lines_may_wrap_after_separators() -> None:
    one_line = ("4 p1 main // p1 20 | lib 1 | hand - | gy - | play 1 Ashpeak T, "
                "2 Burrtusk Boar // p2 20 | lib 1 | hand - | gy - | play -")
    wrapped = ("4 p1 main //\n  p1 20 | lib 1 | hand - | gy - |\n  play 1 Ashpeak T,\n"
               "  2 Burrtusk Boar //\n  p2 20 | lib 1 | hand - | gy - | play -"
               "  # stack 9 Kindlewhip @p2; combat block attackers 2")
    assert render(parse(wrapped)) == render(parse(one_line))


def test_reading_opens_the_phase_with_the_active_player_to_act() -> None:
    state = parse("6 p2 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak // "
                  "p2 20 | lib 3 | hand - | gy - | play 2 Burrtusk Boar")
    assert asked(state) == (1, "main")
    assert state.pending()[0].options == ("attack", "end")
    assert state.stack == [] and state.combat is None and state.casting is None


# -- positions reached in real play ------------------------------------------------------
FLOATING = (["Ashpeak"] * 9 + ["Mossvale"] * 9 + ["Loamrich Bloom"] * 6 + ["Kindlewhip"] * 6
            + ["Burrtusk Boar"] * 5 + ["Cragborn Raider"] * 5)
"""A deck whose enchanted lands make more mana than a spell needs: mana floats in pools."""


def quiet_moments(state: DuelState, seed: int, most: int = 3000) -> list[str]:
    """Play the computer for every seat to the end; each moment with no stack, no
    combat, no spell being announced and no discard pending, written."""
    rng = random.Random(seed)
    seen = []
    for _ in range(most):
        pending = state.pending()
        if not pending:
            break
        if not state.stack and state.combat is None and state.casting is None \
                and state.discarding == 0:
            seen.append(render(state))
        seat = pending[0].seat
        state.apply(seat, choose(state, seat, rng))
    return seen


def assert_round_trips(moments: list[str]) -> None:
    for index, text in enumerate(moments):
        again = render(parse(text))
        if again != text:
            at = next((i for i, (a, b) in enumerate(zip(text, again, strict=False)) if a != b),
                      min(len(text), len(again)))
            start = max(0, at - 60)
            raise AssertionError(f"moment {index} reads back otherwise, at "
                                 f"{text[start:at + 30]!r}: {again[start:at + 30]!r}"
                                 f"\n{text}")


@pytest.mark.parametrize("seed", range(4))
def test_positions_of_real_duels_round_trip(seed: int) -> None:
    state = GAME.new({}, 2, seed)
    assert isinstance(state, DuelState)
    moments = quiet_moments(state, seed)
    assert len(moments) > 50 and state.finished is not None
    assert_round_trips(moments)


def test_positions_of_a_real_free_for_all_round_trip() -> None:
    state = GAME.new({}, 3, 5)
    assert isinstance(state, DuelState)
    assert_round_trips(quiet_moments(state, 5))


@pytest.mark.parametrize("seed", [0, 1])
def test_positions_with_mana_floating_round_trip(seed: int) -> None:
    """Loamrich Bloom's extra mana floats, and is spent from the pool later in the phase."""
    state = GAME.new({}, 2, seed, [{"deck": FLOATING}, {"deck": FLOATING}])
    assert isinstance(state, DuelState)
    assert_round_trips(quiet_moments(state, seed))


def test_a_pool_spent_to_nothing_round_trips() -> None:
    state = parse("1 p1 main // p1 20 | lib 5 | hand Kindlewhip | gy - | play - | pool R // "
                  "p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "cast Kindlewhip @p2")
    both_pass(state)
    assert asked(state) == (0, "main") and state.players[1].life == 18
    text = render(state)
    assert render(parse(text)) == text


def test_a_main_phase_after_the_attack_reads_back_without_a_second_attack() -> None:
    state = parse("3 p1 main // p1 20 | lib 5 | hand - | gy - | play 1 Burrtusk Boar, "
                  "2 Cragborn Raider // p2 20 | lib 5 | hand - | gy - | play -")
    act(state, "attack 1")
    pass_until(state, "main")
    assert state.players[1].life == 18 and "attack" not in state.pending()[0].options
    again = parse(render(state))
    assert render(again) == render(state)
    assert again.pending()[0].options == state.pending()[0].options


# -- refusals ------------------------------------------------------------------------------
P2 = " // p2 20 | lib 5" + QUIET
REFUSED = {
    "empty": ("", "two players"),
    "no players": ("3 p1 main", "two players"),
    "one player": ("3 p1 main // p1 20 | lib 5" + QUIET, "two players"),
    "no phase": ("3 p1 // p1 20" + P2, "'3 p1'"),
    "no turn": ("p1 main // p1 20" + P2, "'p1 main'"),
    "a turn not a number": ("three p1 main // p1 20" + P2, "three"),
    "no life": ("3 p1 main // p1 | lib 5" + P2, "'p1'"),
    "life and more": ("3 p1 main // p1 20 lib 5" + P2, "'p1 20 lib 5'"),
    "life not a number": ("3 p1 main // p1 x | lib 5" + P2, "'x'"),
    "players out of order": ("3 p1 main // p2 20 // p1 20", "'p2 20'"),
    "p3 in a duel": ("3 p3 main // p1 20" + P2, "'p3'"),
    "p0": ("3 p0 main // p1 20" + P2, "'p0'"),
    "a bad phase": ("3 p1 lunch // p1 20" + P2, "lunch"),
    "the untap step is no phase to start in": ("3 p1 untap // p1 20" + P2, "untap"),
    "the heal step is no phase to start in": ("3 p1 heal // p1 20" + P2, "heal"),
    "an unknown card in hand": ("3 p1 main // p1 20 | hand Kindlewip" + P2, "Kindlewip"),
    "an unknown card in the library": ("3 p1 main // p1 20 | lib Ashpeak, Ahspeak" + P2,
                                       "Ahspeak"),
    "an unknown card in play": ("3 p1 main // p1 20 | play 1 Ashpeek" + P2, "Ashpeek"),
    "a name in the wrong case": ("3 p1 main // p1 20 | gy kindlewhip" + P2, "kindlewhip"),
    "an empty name in a list": ("3 p1 main // p1 20 | hand Ashpeak, , Ashpeak" + P2, "''"),
    "a number used twice": ("3 p1 main // p1 20 | play 4 Ashpeak, 4 Mossvale" + P2,
                            "4 is used twice"),
    "a number used twice by two players": (
        "3 p1 main // p1 20 | play 4 Ashpeak // p2 20 | play 4 Mossvale", "4 is used twice"),
    "a permanent without a number": ("3 p1 main // p1 20 | play Ashpeak" + P2, "'Ashpeak'"),
    "a bad flag": ("3 p1 main // p1 20 | play 1 Ashpeak Q" + P2, "Q"),
    "a damage flag without a number": ("3 p1 main // p1 20 | play 1 Ashpeak D" + P2,
                                       "Ashpeak D"),
    "a shield flag with a letter": ("3 p1 main // p1 20 | play 1 Ashpeak R1x" + P2, "R1x"),
    "an aura flag without a number": ("3 p1 main // p1 20 | play 1 Ashpeak @x" + P2, "@x"),
    "an aura on nothing": ("3 p1 main // p1 20 | play 1 Oakhide Mantle @9" + P2, "9"),
    "a pool of no colour": ("3 p1 main // p1 20 | pool RZ" + P2, "Z"),
    "an unknown field": ("3 p1 main // p1 20 | deck 5" + P2, "'deck'"),
    "an empty field": ("3 p1 main // p1 20 | | lib 5" + P2, "''"),
}


@pytest.mark.parametrize(("text", "named"), list(REFUSED.values()), ids=list(REFUSED))
def test_a_malformed_position_is_refused_naming_the_problem(text: str, named: str) -> None:
    with pytest.raises(MalformedChoice) as refused:
        parse(text)
    assert named in str(refused.value)


# Generated text: arbitrary, made of the notation's own words, and valid positions with
# a few characters changed.
WORDS = st.sampled_from([
    "//", "|", ",", "#", "-", "@", "p1", "p2", "p3", "p5", "1", "3", "20", "0", "x", "²", "٣",
    "-4", "main", "upkeep", "draw", "discard", "end", "untap", "heal", "lib", "hand", "gy",
    "play", "pool", "RRG", "land-played", "manual", "Ashpeak", "Kindlewhip", "Oakhide Mantle",
    "Wayfarer's Cairn", "T", "S", "D1", "R2", "@1", "@9", "D", "Q",
])
VALID = st.sampled_from([t for t, _, _ in POSITIONS.values()])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(VALID)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.text(max_size=3)) + text[at + cut:]
    return text


TEXT = st.one_of(st.text(max_size=80), st.lists(WORDS, max_size=25).map(" ".join), mutated())


@PROFILE
@given(text=TEXT)
@example(text="3 p1 main // p1 x // p2 20")
@example(text="² p1 main // p1 20 // p2 20")
@example(text="3 p1 main // p1 20 | lib ² // p2 20")
@example(text="3 p1 main // p1 20 | lib 99999999999999999999 // p2 20")
def test_any_text_is_read_or_refused_with_malformed_choice(text: str) -> None:
    try:
        state = parse(text)
    except MalformedChoice as refusal:
        assert str(refusal)
        return
    assert isinstance(state, DuelState)


@PROFILE
@given(text=TEXT)
@example(text="3 p1 main // p1 20 | pool R G // p2 20")
@example(text="3 p1 heal // p1 20 // p2 20")
def test_what_is_read_writes_back_stably_and_can_be_played(text: str) -> None:
    try:
        state = parse(text)
    except (MalformedChoice, ValueError, OverflowError):
        return  # the test above reports refusals of the wrong kind
    written = render(state)
    assert render(parse(written)) == written
    for _ in range(40):  # the automatic passes: the duel goes on or is over
        pending = state.pending()
        assert pending or state.finished is not None, f"nobody is asked in {render(state)}"
        if not pending or pending[0].forced is None:
            break
        state.apply(pending[0].seat, pending[0].forced)


# -- the action notation -----------------------------------------------------------------------
def test_cast_at_a_player() -> None:
    state = parse("4 p1 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak // "
                  "p2 20 | lib 3" + QUIET)
    events = act(state, "cast Kindlewhip @p2")
    assert [e.kind for e in events] == ["cast"]
    assert [(i.name, i.target) for i in state.stack] == [("Kindlewhip", "p2")]
    assert state.battlefield[1].tapped and asked(state) == (1, "priority")
    act(state, "pass")
    assert asked(state) == (0, "priority") and state.stack
    act(state, "pass")
    assert state.players[1].life == 18 and not state.stack
    assert names(state, state.players[0].graveyard) == ["Kindlewhip"]


@pytest.mark.parametrize("target", ["3", "Cragborn Raider"])
def test_cast_at_a_permanent_by_number_or_name(target: str) -> None:
    state = parse("4 p1 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak, "
                  "2 Burrtusk Boar // p2 20 | lib 3 | hand - | gy - | play 3 Cragborn Raider")
    act(state, f"cast Kindlewhip @{target}")
    assert state.stack[0].target == "3"
    both_pass(state)
    assert 3 not in state.battlefield and names(state, state.players[1].graveyard) == [
        "Cragborn Raider"]


def test_cast_an_x_spell() -> None:
    state = parse("4 p1 main // p1 20 | lib 3 | hand Ashgale Volley | gy - | play 1 Ashpeak, "
                  "2 Ashpeak, 3 Ashpeak, 4 Ashpeak, 5 Ashpeak, 6 Ashpeak // p2 20 | lib 3" + QUIET)
    act(state, "cast Ashgale Volley X=3 @p2")
    assert state.stack[0].x == 3
    assert sum(p.tapped for p in state.battlefield.values()) == 5  # X=3 and RR
    both_pass(state)
    assert state.players[1].life == 17


def test_cast_paid_with_named_lands() -> None:
    state = parse("4 p1 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak, "
                  "2 Ashpeak // p2 20 | lib 3" + QUIET)
    act(state, "cast Kindlewhip with 2 @p2")
    assert [p.tapped for p in state.battlefield.values()] == [False, True]


def test_an_x_for_a_spell_without_x_is_refused_not_taken_for_the_target() -> None:
    state = parse("4 p1 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak, "
                  "3 Burrtusk Boar // p2 20 | lib 3" + QUIET)
    with pytest.raises(MalformedChoice):
        act(state, "cast Kindlewhip X=3 @p2")


def test_an_unknown_target_is_refused_naming_it() -> None:
    state = parse("4 p1 main // p1 20 | lib 3 | hand Kindlewhip | gy - | play 1 Ashpeak // "
                  "p2 20 | lib 3" + QUIET)
    with pytest.raises(MalformedChoice, match="Stormcrest Roc"):
        act(state, "cast Kindlewhip @Stormcrest Roc")


def test_use_an_ability() -> None:
    state = parse("4 p2 main // p1 20 | lib 3 | hand - | gy - | play 1 Burrtusk Boar // "
                  "p2 20 | lib 3 | hand - | gy - | play 2 Flintspark Adept, 3 Sparkwheel Turret, "
                  "4 Mossvale, 5 Mossvale")
    act(state, "use 3.1 @1")
    item = state.stack[0]
    assert (item.name, item.target, item.spell, item.source) == ("Sparkwheel Turret", "1",
                                                                  False, 3)
    assert all(state.battlefield[p].tapped for p in (3, 4, 5))
    both_pass(state)
    act(state, "use 2.1 @Burrtusk Boar")
    both_pass(state)
    assert 1 not in state.battlefield and state.battlefield[2].tapped


def test_boost() -> None:
    state = parse("6 p1 main // p1 20 | lib 3 | hand - | gy - | play 1 Ashpeak, "
                  "2 Torchbearer Militia // p2 20 | lib 3" + QUIET)
    events = act(state, "boost 2.R")
    assert [e.kind for e in events] == ["boost"] and not state.stack
    assert state.table.power(2) == 3 and state.battlefield[1].tapped
    assert asked(state) == (0, "main")


def test_attack_block_and_assign_trample() -> None:
    state = parse("6 p1 main // p1 20 | lib 3 | hand - | gy - | play 1 Magma Ridgeback, "
                  "2 Cragborn Raider // p2 20 | lib 3 | hand - | gy - | play 3 Burrtusk Boar")
    act(state, "attack 1,2")
    assert state.combat is not None and state.combat.attackers == [1, 2]
    pass_until(state, "block")
    act(state, "block 3>1")
    assert state.combat.blocks == {1: [3]}
    pass_until(state, "assign")
    assert state.pending()[0].options == ("3", "p2")
    act(state, "assign 3=2,p2=2")
    pass_until(state, "main")
    assert state.players[1].life == 16  # 2 trampled over, 2 from the Raider
    assert 3 not in state.battlefield and state.battlefield[1].damage == 2


def test_attack_as_a_band_and_split_the_blockers_damage() -> None:
    state = parse("6 p1 main // p1 20 | lib 3 | hand - | gy - | play 1 Vigil Squire, "
                  "2 Cragborn Raider // p2 20 | lib 3 | hand - | gy - | "
                  "play 3 Shieldbearer Phalanx")
    act(state, "attack 1,2 band 1+2")
    assert state.combat is not None and state.combat.band == (1, 2)
    pass_until(state, "block")
    act(state, "block 3>2")
    assert state.combat.blocked == {1}  # blocking a member blocks the band
    pass_until(state, "assign")
    assert asked(state) == (0, "assign")
    act(state, "assign 2=1")  # the Phalanx's 1 damage, to the Raider
    pass_until(state, "main")
    assert 2 not in state.battlefield and 1 in state.battlefield
    assert state.battlefield[3].damage == 3 and state.players[1].life == 20


def test_block_none() -> None:
    state = parse("6 p1 main // p1 20 | lib 3 | hand - | gy - | play 1 Burrtusk Boar // "
                  "p2 20 | lib 3 | hand - | gy - | play 2 Cragborn Raider")
    act(state, "attack 1")
    pass_until(state, "block")
    act(state, "block none")
    pass_until(state, "main")
    assert state.players[1].life == 18 and 2 in state.battlefield


def test_end_and_discard_to_the_hand_limit() -> None:
    state = parse("8 p2 main // p1 20 | lib 3" + QUIET + " // p2 20 | lib 3 | hand Ashpeak, "
                  "Ashpeak, Ashpeak, Mossvale, Mossvale, Kindlewhip, Rushing Sap, Burrtusk Boar,"
                  " Forgeheat Surge | gy - | play -")
    act(state, "end")
    assert (state.phase, asked(state)) == ("discard", (1, "discard"))
    act(state, "discard Ashpeak 2, Kindlewhip")
    assert names(state, state.players[1].graveyard) == ["Ashpeak", "Kindlewhip"]
    assert len(state.players[1].hand) == 7 and asked(state) == (1, "priority")


def test_pass_hands_priority_on_and_two_passes_close_the_window() -> None:
    state = parse("5 p1 upkeep // p1 20 | lib 3 | hand - | gy - | play - | manual // "
                  "p2 20 | lib 3" + QUIET + " | manual")
    assert asked(state) == (0, "priority")
    act(state, "pass")
    assert asked(state) == (1, "priority") and state.phase == "upkeep"
    act(state, "pass")
    assert state.phase == "draw" and asked(state) == (0, "priority")
    assert len(state.players[0].hand) == 1


def test_land_then_end_of_turn() -> None:
    state = parse("5 p1 main // p1 20 | lib 3 | hand Ashpeak | gy - | play - // p2 20 | lib 3"
                  + QUIET)
    act(state, "land Ashpeak")
    assert state.players[0].land_played and [p.name for p in state.battlefield.values()] == [
        "Ashpeak"]
    pass_until(state, "main", 0)
    act(state, "end")
    assert state.phase == "discard"


def test_a_free_for_all_attack_is_answered_step_by_step() -> None:
    """What the documentation says to do while ``act`` cannot name the defender."""
    state = parse("6 p1 main // p1 20 | lib 3 | hand - | gy - | play 1 Cragborn Raider // "
                  "p2 20 | lib 3" + QUIET + " // p3 20 | lib 3" + QUIET)
    state.apply(0, "attack")
    assert state.pending()[0].kind == "defender"
    state.apply(0, "p3")
    state.apply(0, "1")
    pass_until(state, "main")
    assert [p.life for p in state.players] == [20, 20, 18]


def test_nobody_deciding_is_refused() -> None:
    state = parse("5 p1 main // p1 20 | lib 3" + QUIET + " // p2 20 | lib 3" + QUIET)
    state.apply(1, "resign")
    with pytest.raises(MalformedChoice, match="nobody is deciding"):
        act(state, "pass")


# -- the documentation's examples ------------------------------------------------------------
BLOCK = re.compile(r"^```([\w-]+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def bodies(tag: str) -> list[str]:
    """The text of each fenced block of ``tag`` in the documentation."""
    return [body for kind, body in BLOCK.findall(DOC.read_text(encoding="utf-8"))
            if kind == tag]


def blocks(tag: str) -> list[list[str]]:
    """The logical lines of each fenced block of ``tag`` in the documentation (a line
    that starts with spaces goes on the line above)."""
    found = []
    for body in bodies(tag):
        lines: list[str] = []
        for line in body.splitlines():
            if line[:1].isspace() and lines:
                lines[-1] += " " + line.strip()
            elif line.strip():
                lines.append(line.strip())
        found.append(lines)
    return found


DOC_POSITIONS = [line for block in blocks("duel-position") for line in block]


def test_the_documentation_has_its_examples() -> None:
    assert len(DOC_POSITIONS) >= 5
    assert len(blocks("duel-actions")) >= 5 and blocks("duel-refused") and bodies("python")


@pytest.mark.parametrize("text", DOC_POSITIONS, ids=lambda t: t[:25])
def test_every_documented_position_reads_and_round_trips(text: str) -> None:
    rewritten(text)


@pytest.mark.parametrize("lines", blocks("duel-actions"), ids=lambda b: b[1])
def test_every_documented_action_plays_as_shown(lines: list[str]) -> None:
    state = parse(lines[0])
    for line in lines[1:]:
        if line.startswith(">"):
            act(state, line[1:].strip())
        else:
            assert render(state) == line


@pytest.mark.parametrize("lines", blocks("duel-refused"), ids=lambda b: b[0][:25])
def test_every_documented_refusal_is_refused(lines: list[str]) -> None:
    assert len(lines) % 2 == 0
    for text, message in zip(lines[::2], lines[1::2], strict=True):
        assert message.startswith("! ")
        with pytest.raises(MalformedChoice) as refused:
            parse(text)
        assert message[2:] in str(refused.value)


@pytest.mark.parametrize("source", bodies("python"), ids=lambda b: b.splitlines()[-1][:25])
def test_every_documented_snippet_runs(source: str) -> None:
    exec(compile(source, str(DOC), "exec"), {})
