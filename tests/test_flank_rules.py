"""Flank's rules, one test per rule of /work/shared/specs/flank.md.

Positions are written in the state's own notation (see
``FlankState.from_notation``): rows of X/O cards, x/o stoppered cards and '.'
empty cells, the first row's first character on the cell ``at``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.i18n import narrate, say
from rules.core import Outcome, replay
from rules.errors import BadOptions, IllegalChoice, MalformedChoice, NotYourTurn, RulesError
from rules.flank import GAME as FLANK
from rules.flank import (
    FlankOptions,
    FlankState,
    FlankView,
    cell_name,
    parse_cell,
)

DIRECTIONS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]

@contextmanager
def refused(kind: type[RulesError], pattern: str) -> Iterator[None]:
    """Like ``pytest.raises(kind, match=pattern)``, the pattern searched in the refusal's
    English words (a refusal carries a phrase, made in each reader's language)."""
    with pytest.raises(kind) as caught:
        yield
    assert re.search(pattern, say(caught.value.text, "en")), say(caught.value.text, "en")

def rules_words(options: dict[str, object] | None = None, locale: str = "en") -> str:
    """``/rules flank`` for ``options`` as a reader of ``locale`` reads it."""
    return "\n\n".join(say(paragraph, locale) for paragraph in FLANK.rules_for(options))




def table(*rows: str, at: str = "A1", **fields: object) -> FlankState:
    """A position from rows of marks; ``fields`` are other notation fields."""
    extra = " ".join(f"{key}={value}" for key, value in fields.items())
    return FlankState.from_notation(f"at={at} rows={'/'.join(rows)} {extra}")


def placed(cells: dict[tuple[int, int], str], **fields: object) -> FlankState:
    """A position on the unbounded table from ``{(x, y): mark}``."""
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    rows = ["".join(cells.get((x, y), ".") for x in range(min(xs), max(xs) + 1))
            for y in range(min(ys), max(ys) + 1)]
    return table(*rows, at=cell_name(min(xs), min(ys)), **fields)


def colours(state: FlankState) -> dict[str, str]:
    """Every card by cell name: X/O, lower case when stoppered."""
    marks = "XO"
    return {cell_name(*c): (marks[col].lower() if stop else marks[col])
            for c, (col, stop) in state.observe(None).cells.items()}


def options(state: FlankState) -> tuple[str, ...]:
    (decision,) = state.pending()
    return decision.options


# -- opening --------------------------------------------------------------------

def test_opening_is_x_o_over_o_x_with_23_cards_each() -> None:
    state = FlankState(first=0)
    view = state.observe(0)
    assert colours(state) == {"D4": "X", "E4": "O", "D5": "O", "E5": "X"}
    assert view.cards_left == (23, 23)
    assert view.stoppers_left == (6, 5)  # black's extra one (tests/test_flank_seats.py)
    assert view.scores == (2, 2)
    assert view.to_move == 0 and state.to_move == 0
    assert view.board == 0 and view.outcome is None and view.last_move is None


@pytest.mark.parametrize(("n", "cells", "left"), [
    (8, {"D4": "X", "E4": "O", "D5": "O", "E5": "X"}, 30),
    (6, {"C3": "X", "D3": "O", "C4": "O", "D4": "X"}, 16),
    (4, {"B2": "X", "C2": "O", "B3": "O", "C3": "X"}, 6),
])
def test_bounded_opening_is_in_the_centre(n: int, cells: dict[str, str], left: int) -> None:
    state = FlankState({"board": n}, first=0)
    assert colours(state) == cells
    assert state.observe(None).cards_left == (left, left)
    assert state.observe(None).bounds == (0, 0, n - 1, n - 1)


def test_first_options_are_sorted_by_row_then_column() -> None:
    assert options(FlankState({"board": 8, "stoppers": 0}, first=0)) == ("E3", "F4", "C5", "D6")
    assert options(FlankState(first=0)) == ("E3", "E3*", "F4", "F4*", "C5", "C5*", "D6", "D6*")


# -- a placement must outflank ----------------------------------------------------

def test_a_card_must_outflank() -> None:
    state = FlankState(first=0)
    before = state.notation()
    with refused(IllegalChoice, "C3 does not outflank any white card"):
        state.apply(0, "C3")
    with refused(IllegalChoice, "H8 does not outflank any white card"):
        state.apply(0, "H8")  # far from every card on the unbounded table
    assert state.notation() == before


def test_a_run_must_end_at_a_card_of_the_movers_colour() -> None:
    # E1 O O . : a run of white cards that no black card closes does not outflank.
    state = table("XOO..", "....O", "..X..")
    assert "D1" in options(state)  # B1-C1 closed by A1
    assert "E1" not in options(state)
    with refused(IllegalChoice, "E1 does not outflank"):
        state.validate(0, "E1")


@pytest.mark.parametrize(("dx", "dy"), DIRECTIONS)
@pytest.mark.parametrize("length", [1, 3])
def test_flips_in_each_of_the_8_directions(dx: int, dy: int, length: int) -> None:
    cells = {(5, 5): "."}
    run = [(5 + k * dx, 5 + k * dy) for k in range(1, length + 1)]
    cells.update({c: "O" for c in run})
    cells[(5 + (length + 1) * dx, 5 + (length + 1) * dy)] = "X"
    state = placed(cells)
    # F6 flips every white card; F6* would leave white no card to outflank, so no move.
    assert options(state) == ("F6",)
    events = state.apply(0, "F6")
    assert events[0].data["flipped"] == sorted((cell_name(*c) for c in run),
                                               key=lambda n: parse_cell(n)[::-1])
    assert set(colours(state).values()) == {"X"}


def test_every_outflanked_run_in_every_direction_flips() -> None:
    # Laid on C3: west (B3), north (C2, C1), north-east (D2) and south-east (D4, E5).
    state = table("..X..", "..OO.", "XO.OX", "...O.", "...OX", at="A1")
    events = state.apply(0, "C3")
    assert sorted(events[0].data["flipped"]) == ["B3", "C2", "D3", "D4"]
    # South of C3 is empty, south-west is empty: those directions flip nothing.
    after = colours(state)
    assert after["C3"] == "X"
    assert all(after[c] == "X" for c in ("B3", "C2", "D3", "D4"))
    assert after["D2"] == "O" and after["D5"] == "O"


def test_only_runs_closed_by_the_mover_flip() -> None:
    # East run closed by X; west run of O reaches an empty cell: only east flips.
    state = table(".OO.OX")
    events = state.apply(0, "D1")
    assert events[0].data["flipped"] == ["E1"]
    assert colours(state) == {"B1": "O", "C1": "O", "D1": "X", "E1": "X", "F1": "X"}


# -- stoppers ----------------------------------------------------------------------

def test_a_stoppered_card_is_never_flipped() -> None:
    # From A1: east B1 O, C1 stoppered o, D1 X (blocked); south A2 O, A3 X (flips).
    state = table(".OoX", "O...", "X...")
    events = state.apply(0, "A1")
    assert events[0].data["flipped"] == ["A2"]
    after = colours(state)
    assert after["B1"] == "O" and after["C1"] == "o"


def test_a_run_containing_an_opponent_stoppered_card_does_not_outflank() -> None:
    state = table(".OoX", "....")
    before = state.notation()
    assert "A1" not in options(state)
    with refused(IllegalChoice, r"A1 does not outflank any white card.*stopper"):
        state.apply(0, "A1")
    assert state.notation() == before


def test_an_own_stoppered_card_anchors_a_run() -> None:
    state = table(".OOx", "....")
    assert "A1" in options(state)
    events = state.apply(0, "A1")
    assert events[0].data["flipped"] == ["B1", "C1"]
    assert colours(state) == {"A1": "X", "B1": "X", "C1": "X", "D1": "x"}


@pytest.mark.parametrize(("zone", "relation", "cells_barred"), [
    ("ring", "is next to", "the 8 cells around"),
    ("orthogonal", "is beside", "the 4 cells beside"),
])
@pytest.mark.parametrize(("dx", "dy"), [d for d in DIRECTIONS if d != (1, 0)])
@pytest.mark.parametrize("mark", ["x", "o"])
def test_a_stopper_zone_bars_its_cells_around_a_stoppered_card(
        zone: str, relation: str, cells_barred: str, dx: int, dy: int, mark: str) -> None:
    # F6 outflanks eastward (G6 O, H6 X) but a stoppered card sits next to it.
    cells = {(5, 5): ".", (6, 5): "O", (7, 5): "X", (5 + dx, 5 + dy): mark}
    state = placed(cells, stopper_zone=zone)
    where = cell_name(5 + dx, 5 + dy)
    barred = zone == "ring" or not (dx and dy)  # a diagonal neighbour is not beside it
    if barred:
        assert "F6" not in options(state) and "F6*" not in options(state)
        before = state.notation()
        with refused(IllegalChoice, f"F6 {relation} the stoppered card on {where}: "
                                                f"with stopper_zone={zone} no card may be laid "
                                                f"on {cells_barred}"):
            state.apply(0, "F6")
        assert state.notation() == before
    else:
        assert "F6" in options(state)
    assert ((5, 5) in state.observe(None).barred) == barred
    # The same cell is fine once the stopper is gone, or without a zone.
    assert "F6" in options(placed(cells))
    cells[(5 + dx, 5 + dy)] = mark.upper()
    assert "F6" in options(placed(cells, stopper_zone=zone))


def test_by_default_no_cell_is_barred_around_a_stopper() -> None:
    # Stoppered cards on every side of F6, which outflanks toward H6.
    state = table("xxx..", "o.OX.", "xxx..", at="E5")
    assert state.options.stopper_zone == "none"
    assert "F6" in options(state)
    assert state.observe(None).barred == frozenset()
    state.apply(0, "F6")
    assert colours(state)["G6"] == "X"


# -- the default: no stopper may leave the opponent without a move -------------------------

def test_a_stopper_that_would_leave_the_opponent_without_a_move_is_not_offered() -> None:
    # Black's only placement is C1 (flipping B1). White's only answer then is B-1, through
    # C1 to its card on D2, which a stopper on C1 would block.
    rows = ("XO..", "...O")
    state = table(*rows)
    assert options(state) == ("C1",)
    before = state.notation()
    with refused(IllegalChoice, r"a stopper on C1 would leave white, who still "
                                            r"holds cards, with no legal placement, so C1\* is "
                                            r"not allowed \(lay C1 without a stopper\)"):
        state.apply(0, "C1*")
    assert state.notation() == before
    state.apply(0, "C1")
    assert options(state) == ("B-1", "B-1*")
    # The seed's zones have no such rule: there the stopper blockades white.
    for zone in ("orthogonal", "ring"):
        seeds = table(*rows, stopper_zone=zone)
        assert options(seeds) == ("C1", "C1*")
        seeds.apply(0, "C1*")
        assert seeds.pending()[0].options == ("pass",)


def test_a_stopper_may_leave_an_opponent_without_cards_with_nothing_to_do() -> None:
    state = table("XO..", "...O", left="5,0")
    assert options(state) == ("C1", "C1*")
    state.apply(0, "C1*")
    assert "no cards left" in say(state.pending()[0].prompt, "en")


def test_a_refused_stopper_is_named_in_the_prompt_only_when_some_are_offered() -> None:
    state = table("XO..", "...O")
    assert "stopper" not in say(state.pending()[0].prompt, "en")
    assert "add * to put a stopper" in say(FlankState(first=0).pending()[0].prompt, "en")


# -- passing and the end --------------------------------------------------------------

def test_a_seat_without_a_legal_placement_must_pass() -> None:
    # On a 4×4 board black's only card is outflanked against the edge: no placement.
    state = table("OX..", "....", "....", "....", board=4)
    (decision,) = state.pending()
    assert decision.seat == 0 and decision.options == ("pass",)
    assert "no legal placement" in say(decision.prompt, "en")
    with refused(IllegalChoice, "C1 does not outflank"):
        state.validate(0, "C1")
    events = state.apply(0, "pass")
    assert events[0].kind == "pass" and "no legal placement" in say(events[0].text, "en")
    assert not state.over and state.to_move == 1 and state.passes == 1
    assert state.observe(None).last_pass == 0
    state.apply(1, "C1")  # a placement ends the run of passes
    assert state.passes == 0


def test_cannot_pass_while_a_placement_exists() -> None:
    state = FlankState(first=0)
    before = state.notation()
    with refused(IllegalChoice, r"cannot pass.*E3"):
        state.apply(0, "PASS")
    assert state.notation() == before


def test_a_seat_with_no_cards_left_passes() -> None:
    state = table("...", ".XO", ".OX", at="C3", left="0,5")
    (decision,) = state.pending()
    assert decision.options == ("pass",) and "no cards left" in say(decision.prompt, "en")
    with refused(IllegalChoice, "no cards left"):
        state.validate(0, "F4")
    events = state.apply(0, "pass")
    assert "no cards left" in say(events[0].text, "en")
    assert not state.over and state.to_move == 1


def test_the_game_ends_when_both_players_pass_in_succession() -> None:
    state = table("XX..", "....", "....", "....", board=4)
    assert state.pending()[0].options == ("pass",)
    state.apply(0, "pass")
    assert not state.over
    events = state.apply(1, "pass")
    assert state.over and not state.pending()
    assert [e.kind for e in events] == ["pass", "end"]
    outcome = state.outcome()
    assert outcome == Outcome(places=(1, 2), scores=(2, 0), reason=outcome.reason)
    assert say(outcome.reason, "en") == "both players passed; 2–0 cards"
    with pytest.raises(NotYourTurn):
        state.apply(0, "pass")


def test_the_game_ends_when_both_supplies_are_empty() -> None:
    state = table("...", ".XO", ".OX", at="C3", left="1,0")
    events = state.apply(0, "F4")
    assert state.over
    assert events[-1].kind == "end" and "both supplies are empty" in say(events[-1].text, "en")
    assert state.outcome().winners == (0,)
    assert state.observe(None).to_move is None and state.observe(None).legal == frozenset()


def test_a_game_with_no_cards_to_lay_is_over_at_once() -> None:
    state = FlankState({"cards": 2}, first=0)
    assert state.over and state.outcome().is_draw and state.pending() == ()


def test_scores_count_cards_showing_and_more_wins() -> None:
    state = table("XXXo", "oOOx", at="A1", passes=2)
    view = state.observe(None)
    assert view.scores == (4, 4)
    state = table("XXXo", "xOOx", at="A1", passes=2)
    outcome = state.outcome()
    assert outcome.scores == (5, 3) and outcome.winners == (0,) and outcome.places == (1, 2)
    assert state.observe(None).outcome == outcome
    state = table("XOOO", at="A1", passes=2)
    assert state.outcome().winners == (1,)


def test_equal_counts_are_a_draw() -> None:
    state = table("XXOO", at="A1", passes=2)
    outcome = state.outcome()
    assert outcome.is_draw and outcome.places == (1, 1) and outcome.scores == (2, 2)


def test_the_end_event_names_the_winner() -> None:
    state = table("XX..", "....", "....", "....", board=4)
    state.apply(0, "pass")
    end = state.apply(1, "pass")[-1]
    assert narrate(end, ["Ada", "Bo"], "en") == \
        "Game over (both players passed): Ada 2 – Bo 0. Ada wins."


# -- the table -------------------------------------------------------------------------

def test_cells_outside_a_bounded_board_do_not_exist() -> None:
    state = FlankState({"board": 8}, first=0)
    for text, cell in (("I9", "I9"), ("I1", "I1"), ("A9", "A9"), ("-A1", "-A1"), ("a-1", "A-1")):
        with refused(MalformedChoice, f"{cell} is off the 8×8 board"):
            state.validate(0, text)


def test_runs_do_not_wrap_around_a_bounded_board() -> None:
    # G1: east is H1 (white) and then the edge, not A2 (black) on the next row.
    state = table(".......O", "X.......", "........", "........",
                  "........", "........", "........", "........", board=8)
    assert options(state) == ("pass",)


def test_the_unbounded_table_grows_to_negative_cells() -> None:
    state = table("OX", "X.", at="A1")
    assert "-A1" in options(state) and "A-1" in options(state)
    state.apply(0, "-A1")
    assert colours(state) == {"-A1": "X", "A1": "X", "B1": "X", "A2": "X"}
    view = state.observe(None)
    assert view.last_move == (-1, 0) and view.bounds[0] == -2
    # Far to the north-west: the table keeps growing and the names mirror.
    state = FlankState.from_notation("at=-C-5 rows=.OOX move=X")
    assert options(state) == ("-C-5",)  # -C-5* would leave white no move
    state.apply(0, "-C-5")
    assert colours(state) == {"-C-5": "X", "-B-5": "X", "-A-5": "X", "A-5": "X"}
    assert parse_cell("-C-5") == (-3, -5)


def test_the_table_grows_far_in_every_direction() -> None:
    # Black always plays as far north-west as it can, white at random.
    state = FlankState({"stoppers": 0, "cards": 60}, first=0)
    rng = random.Random(3)
    seen_x: set[int] = set()
    while not state.over:
        (decision,) = state.pending()
        if decision.seat == 0:
            choice = min(decision.options, key=lambda o: sum(parse_cell(o)) if o != "pass" else 0)
        else:
            choice = rng.choice(decision.options)
        state.apply(decision.seat, choice)
        seen_x.update(x for x, _ in state.observe(None).cells)
        twin = FlankState.from_notation(state.notation())
        assert twin == state and twin.pending() == state.pending()
    assert min(seen_x) < -3


# -- input handling ---------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Z", "44", "C", "", "*", "C4**", "C 4 x", "pass now", "C0"])
def test_malformed_input_names_itself_and_changes_nothing(text: str) -> None:
    state = FlankState(first=0)
    before = state.notation()
    with pytest.raises(MalformedChoice) as caught:
        state.apply(0, text)
    assert repr(text) in str(caught.value)
    assert state.notation() == before


def test_a_non_string_choice_is_malformed() -> None:
    with pytest.raises(MalformedChoice):
        FlankState(first=0).validate(0, 44)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "message"), [
    ("D4", "D4 is taken by a black card"),
    ("e4", "E4 is taken by a white card"),
    ("C3", "C3 does not outflank any white card"),
    ("pass", "cannot pass"),
])
def test_illegal_input_says_why_and_changes_nothing(text: str, message: str) -> None:
    state = FlankState(first=0)
    before = state.notation()
    with refused(IllegalChoice, message):
        state.apply(0, text)
    assert state.notation() == before


@pytest.mark.parametrize(("text", "canonical"), [
    ("f4", "F4"), (" F4 ", "F4"), ("f4*", "F4*"), (" F4 * ", "F4*"), ("f 4", "F4"),
])
def test_input_is_read_loosely_and_returned_canonical(text: str, canonical: str) -> None:
    assert FlankState(first=0).validate(0, text) == canonical


def test_pass_is_read_in_any_case() -> None:
    state = table("OX..", "....", "....", "....", board=4)
    assert state.validate(0, " PaSs ") == "pass"


def test_only_the_seat_to_move_may_play() -> None:
    state = FlankState(first=0)
    with pytest.raises(NotYourTurn):
        state.apply(1, "F4")
    with pytest.raises(NotYourTurn):
        state.validate(1, "F4")


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        FlankState(first=0).apply(0, "nowhere")
    assert issubclass(MalformedChoice, RulesError)


# -- events ------------------------------------------------------------------------------

def test_a_placement_event_says_what_flipped() -> None:
    state = FlankState(first=0)
    (event,) = state.apply(0, "F4")
    assert event.kind == "place" and event.public
    assert narrate(event, ["Ada", "Bo"], "en") == "Ada lays F4 and flips 1 (E4)."
    assert event.data == {"seat": 0, "cell": "F4", "flipped": ["E4"], "stopper": False}
    view = state.observe(1)
    assert view.last_move == (5, 3) and view.flipped == frozenset({(4, 3)})
    assert view.to_move == 1 and view.scores == (4, 1) and view.cards_left == (22, 23)


# -- seats: who plays first --------------------------------------------------------------

def test_the_first_player_is_drawn_from_the_seed_and_plays_black() -> None:
    firsts = {}
    for seed in range(40):
        state = FLANK.new({}, 2, seed)
        assert isinstance(state, FlankState)
        firsts[seed] = state.first
        view = state.observe(None)
        # Whoever was drawn plays X on D4/E5 and moves first.
        assert state.to_move == view.to_move == state.first == view.first
        assert view.colours[state.first] == 0 and view.colours[1 - state.first] == 1
        assert colours(state) == {"D4": "X", "E4": "O", "D5": "O", "E5": "X"}
        assert state.pending()[0].seat == state.first
        assert FLANK.new({}, 2, seed).first == state.first  # the same seed, the same draw
    assert set(firsts.values()) == {0, 1}
    assert 10 <= sum(firsts.values()) <= 30


def test_a_match_replays_identically_whoever_starts() -> None:
    for seed in (1, 2, 3, 4):
        state = FLANK.new({"board": 6}, 2, seed)
        rng = random.Random(seed)
        log = []
        for _ in range(12):
            (decision,) = state.pending()
            choice = rng.choice(decision.options)
            log.append((decision.seat, choice))
            state.apply(decision.seat, choice)
        again = replay(FLANK, {"board": 6}, 2, seed, log)
        assert again == state and again.first == state.first


def test_the_second_seat_can_play_black() -> None:
    state = FlankState(first=1)
    with pytest.raises(NotYourTurn):
        state.apply(0, "F4")
    events = state.apply(1, "F4")
    assert narrate(events[0], ["Ada", "Bo"], "en") == "Bo lays F4 and flips 1 (E4)."
    view = state.observe(None)
    assert view.cells[parse_cell("F4")] == (0, False)  # black, the first player's colour
    assert view.scores == (1, 4) and view.cards_left == (23, 22) and view.to_move == 0
    with refused(IllegalChoice, "D4 is taken by a black card"):
        state.apply(0, "D4")
    with refused(IllegalChoice, "C3 does not outflank any black card"):
        state.apply(0, "C3")


def test_the_end_event_lists_black_first_and_scores_by_seat() -> None:
    state = table("OO..", "....", "....", "....", board=4, first=1)
    assert state.first == 1 and state.to_move == 1
    state.apply(1, "pass")
    end = state.apply(0, "pass")[-1]
    assert narrate(end, ["Ada", "Bo"], "en") == \
        "Game over (both players passed): Bo 0 – Ada 2. Ada wins."
    assert end.data == {"scores": [2, 0], "winners": [0]}
    assert state.outcome().scores == (2, 0) and state.outcome().winners == (0,)


def test_notation_writes_colours_and_the_first_seat() -> None:
    state = FlankState({"board": 4}, first=1)
    state.apply(1, "D2*")
    text = state.notation()
    assert "first=1" in text and "move=O" in text
    assert "rows=..../.XXx/.OX./...." in text
    assert "left=5,6" in text and "stop=4,5" in text  # X's counts first: X is seat 1
    rebuilt = FlankState.from_notation(text)
    assert rebuilt == state and rebuilt.first == 1 and rebuilt.to_move == 0
    assert rebuilt.supply == [6, 5] and rebuilt.stoppers == [5, 4]
    assert rebuilt.observe(None) == state.observe(None)


# -- resignation, copies, notation, options -------------------------------------------------

def test_resignation_gives_the_other_seat_the_win() -> None:
    state = FlankState(first=0)
    state.apply(0, "F4")
    events = state.apply(1, "resign")
    assert events[0].kind == "resign"
    assert state.over and state.outcome().winners == (0,) and state.pending() == ()
    assert state.observe(None).to_move is None
    assert FlankState.from_notation(state.notation()).outcome() == state.outcome()


def test_a_copy_is_independent() -> None:
    state = FlankState(seed=5, first=0)
    twin = state.copy()
    assert twin == state and twin is not state
    twin.apply(0, "F4*")
    assert state.notation() != twin.notation()
    assert state.observe(None).cells == FlankState(first=0).observe(None).cells
    assert state.observe(None).stoppers_left == (6, 5)
    assert twin.rng is not state.rng
    assert twin.rng.getstate() == state.rng.getstate()
    twin.rng.random()
    assert twin.rng.getstate() != state.rng.getstate()
    assert state.step == 0 and twin.step == 1


def test_notation_round_trips_through_a_game() -> None:
    for options_ in ({}, {"board": 8}, {"board": 6, "stoppers": 2}):
        state = FlankState.new(options_, 2, 1)
        rng = random.Random(1)
        while True:
            text = state.notation()
            rebuilt = FlankState.from_notation(text)
            assert rebuilt.notation() == text and rebuilt == state
            assert rebuilt.pending() == state.pending()
            assert rebuilt.observe(None) == state.observe(None)
            if state.over:
                break
            (decision,) = state.pending()
            state.apply(decision.seat, rng.choice(decision.options))


def test_notation_is_one_line() -> None:
    text = FlankState({"board": 8}, first=0).notation()
    assert "\n" not in text and "rows=" in text and "move=X" in text


@pytest.mark.parametrize("bad", [
    {"board": 7}, {"board": 2}, {"board": 28}, {"board": "big"}, {"board": True},
    {"stoppers": 11}, {"stoppers": -1}, {"stoppers": 2.5}, {"cards": 1},
    {"board": 8, "cards": 33}, {"cards": 101}, {"colour": "black"},
    {"stopper_zone": "square"}, {"stopper_zone": 8}, {"stopper_zone": True},
])
def test_bad_options_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(BadOptions) as caught:
        FlankState.new(bad)
    key = next(iter(bad)) if "colour" not in bad else "colour"
    assert key in str(caught.value)


@pytest.mark.parametrize(("given", "expected"), [
    ({}, FlankOptions(board=0, stoppers=5, cards=25)),
    ({"board": "8"}, FlankOptions(board=8, stoppers=5, cards=32)),
    ({"board": "8x8", "stoppers": "0"}, FlankOptions(board=8, stoppers=0, cards=32)),
    ({"board": 6, "cards": "10"}, FlankOptions(board=6, stoppers=5, cards=10)),
    ({"Board": " 4 ", "stoppers": None}, FlankOptions(board=4, stoppers=5, cards=8)),
    ({"board": "0", "cards": 40, "stoppers": 10}, FlankOptions(board=0, stoppers=10, cards=40)),
    ({"stopper_zone": " Orthogonal "},
     FlankOptions(board=0, stoppers=5, cards=25, stopper_zone="orthogonal")),
    ({"stopper_zone": "ring", "board": 8},
     FlankOptions(board=8, stoppers=5, cards=32, stopper_zone="ring")),
    ({"stopper_zone": None}, FlankOptions(board=0, stoppers=5, cards=25, stopper_zone="none")),
])
def test_options_are_read_from_strings_too(given: dict[str, object],
                                           expected: FlankOptions) -> None:
    assert FlankOptions.parse(given) == expected


def test_a_stored_match_without_stopper_zone_gets_the_default() -> None:
    # Matches stored before the option existed kept only board, stoppers and cards.
    stored = {"board": 8, "stoppers": 5, "cards": 32}
    assert FlankOptions.parse(stored).stopper_zone == "none"
    assert FLANK.new(stored, 2, 1).options.stopper_zone == "none"
    options = FlankOptions.parse({"stopper_zone": "ring"})
    assert options.stored() == {"board": 0, "stoppers": 5, "stopper_zone": "ring", "cards": 25,
                                "extra_stoppers": 1}
    assert FlankOptions.parse(options.stored()) == options


def test_the_rules_text_says_what_each_stopper_zone_does() -> None:
    usual = rules_words()
    for zone, words in (("none", "no stopper is allowed where it would leave your opponent"),
                        ("orthogonal", "the 4 cells beside a stoppered card"),
                        ("ring", "the 8 cells around it")):
        assert f"`{zone}`" in usual
        chosen = rules_words({"stopper_zone": zone})
        assert f"this game: `{zone}`: " in chosen and words in chosen
    assert "drawn at random" in usual


def test_flank_is_registered() -> None:
    from rules.registry import get_game

    info = get_game("flank")
    assert info is FLANK and info.title == "Flank"
    assert (info.min_seats, info.max_seats, info.default_turn_seconds) == (2, 2, 300)
    assert [spec.name for spec in info.options.specs()] == [
        "board", "stoppers", "stopper_zone", "cards", "extra_stoppers"]
    assert not info.has_secrets
    state = info.new({"board": 8}, 2, seed=9)
    assert isinstance(state, FlankState) and state.game == "flank" and state.seed == 9
    assert len(rules_words()) < 2000
    with pytest.raises(BadOptions):
        info.new({}, seats=3)


def test_everyone_sees_the_same_view() -> None:
    state = FlankState(first=0)
    state.apply(0, "F4*")
    assert state.observe(0) == state.observe(1) == state.observe(None)
    assert isinstance(state.observe(0), FlankView)


@pytest.mark.parametrize("text", ["rows=.... board=0", "rows=XO move=Q", "rows=XZ", "nonsense"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        FlankState.from_notation(text)


# --- in Portuguese ---------------------------------------------------------------------------


def test_a_move_and_a_refusal_read_in_portuguese() -> None:
    state = FlankState(first=0)
    (event,) = state.apply(0, "F4*")
    assert narrate(event, ["Ana", "Bia"], "pt_BR") == \
        "Ana coloca F4 e vira 1 (E4), depois põe um bloqueador nela."
    assert narrate(event, ["Ana", "Bia"], "en") == \
        "Ana lays F4 and flips 1 (E4), then puts a stopper on it."
    with pytest.raises(IllegalChoice) as caught:
        state.apply(1, "F4")
    assert say(caught.value.text, "pt_BR") == "F4 já tem uma carta preta"
    with pytest.raises(IllegalChoice) as caught:
        state.apply(1, "A1")
    assert say(caught.value.text, "pt_BR") == "A1 não cerca nenhuma carta preta"
    prompt = state.pending()[0].prompt
    assert say(prompt, "pt_BR") == ("Coloque uma carta onde ela cerque (ex.: D3); acrescente * "
                                    "para pôr um bloqueador nela (restam 5).")


def test_the_end_and_its_reason_read_in_portuguese() -> None:
    state = table("XX..", "....", "....", "....", board=4)
    state.apply(0, "pass")
    events = state.apply(1, "pass")
    assert narrate(events[0], ["Ana", "Bia"], "pt_BR") == "Bia passa (sem jogada válida)."
    assert narrate(events[-1], ["Ana", "Bia"], "pt_BR") == \
        "Fim de jogo (os dois jogadores passaram): Ana 2 – Bia 0. Ana venceu."
    outcome = state.outcome()
    assert outcome is not None
    assert say(outcome.reason, "pt_BR") == "os dois jogadores passaram; 2–0 em cartas"


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_the_rules_fit_one_message_in_every_language(locale: str) -> None:
    """Discord's embed description holds 4,096 characters: every variant of /rules
    flank stays under 4,000 in each language, every paragraph made whole."""
    for given in ({}, {"board": 8, "stoppers": 0}, {"board": 6}, {"stoppers": 0},
                  {"stopper_zone": "orthogonal"}, {"stopper_zone": "orthogonal", "board": 8},
                  {"stopper_zone": "ring", "extra_stoppers": 5}, {"extra_stoppers": 0}):
        text = rules_words(given, locale)
        assert len(text) < 4000, (given, len(text))
        assert "{" not in text and "flank." not in text
    assert ("Quem começa é sorteado" in rules_words({}, locale)) == (locale == "pt_BR")
