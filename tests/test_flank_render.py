"""Flank's pictures: the PNG of the table and the monospace text board."""

from __future__ import annotations

import io
import random
import time

import pytest
from PIL import Image

from bot.games.flank.pictures import (
    BARRED,
    DISC,
    KEY,
    LAST,
    STOPPER,
    layout,
    legend_items,
    legend_keys,
    render_png,
)
from bot.games.flank.presenter import FlankPresenter
from bot.i18n import pseudo, say, speaking
from bot.matches.live import LiveMatch, PrivateView
from rules.flank import GAME as FLANK
from rules.flank import FlankState, parse_cell
from rules.flank.text import render_text
from storage.models import MatchRow, SeatRow
from tests.images import count, opened, pixels_contrasting
from tests.pseudo import pictures_checked

NAMES = ["Ada", "Bo"]


def played(options: dict[str, int], moves: int, seed: int = 1) -> FlankState:
    state = FlankState.new(options, 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.over:
            break
        (decision,) = state.pending()
        plain = [o for o in decision.options if not o.endswith("*")]
        state.apply(decision.seat, rng.choice(plain or decision.options))
    return state


def picture(state: FlankState, names: list[str] = NAMES) -> Image.Image:
    data = render_png(state.observe(None), names)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.verify()
    return Image.open(io.BytesIO(data))


def test_the_png_is_a_valid_picture() -> None:
    image = picture(FlankState({"board": 8}, first=0))
    assert image.format == "PNG" and image.width >= 8 * 48 and image.height >= 8 * 48


def test_the_png_grows_with_the_table() -> None:
    small = picture(FlankState({"board": 6}, first=0))
    large = picture(FlankState({"board": 12}, first=0))
    assert large.width > small.width and large.height > small.height
    start = picture(FlankState({"stoppers": 0, "cards": 60}, first=0))
    grown = picture(played({"stoppers": 0, "cards": 60}, 60))
    assert grown.width * grown.height > start.width * start.height


def test_the_png_of_a_huge_table_stays_a_sensible_size() -> None:
    state = FlankState.from_notation("board=0 at=A1 rows=X" + "." * 200 + "O/O" + "." * 200 + "X")
    image = picture(state)
    assert image.width <= 1600


def test_the_png_copes_with_stoppers_a_finished_game_and_odd_names() -> None:
    state = played({"board": 8}, 200, seed=4)
    assert state.over
    picture(state, ["Ada Lovelace, Countess of Lovelace 🎲", "Bo – 博"])
    picture(played({}, 12, seed=2), ["x", "y"])
    resigned = FlankState(first=0)
    resigned.apply(0, "resign")
    picture(resigned)


def test_the_png_is_quick() -> None:
    state = played({"board": 8}, 20)
    render_png(state.observe(None), NAMES)  # fonts load once
    started = time.perf_counter()
    for _ in range(5):
        render_png(state.observe(None), NAMES)
    assert (time.perf_counter() - started) / 5 < 0.5  # a sanity ceiling; typically ~10 ms


def legend_band(state: FlankState, image: Image.Image) -> Image.Image:
    """The part of the picture under the grid and its bottom coordinates: legend and footer."""
    view = state.observe(None)
    place = layout(view, NAMES)
    rows = view.bounds[3] - view.bounds[1] + 1
    bottom = place.top + rows * place.cell + 22
    return image.crop((0, bottom, image.width, image.height))


def test_barred_cells_are_crossed_only_under_a_stopper_zone() -> None:
    for zone in ("ring", "orthogonal"):
        state = FlankState({"stopper_zone": zone}, first=0)
        state.apply(0, "F4*")  # a stopper on F4: G4 (and, in the ring, G3) are barred
        view = state.observe(None)
        image = opened(render_png(view, NAMES))
        place = layout(view, NAMES)
        assert image.getpixel(place.centre(*parse_cell("G4"))) == BARRED
        ring_only = image.getpixel(place.centre(*parse_cell("G3")))
        assert (ring_only == BARRED) == (zone == "ring")
        # A stoppered card's own cell shows the stopper, not a cross.
        assert image.getpixel(place.centre(*parse_cell("F4"))) == STOPPER
        crosses = count(image, BARRED)
        assert crosses > len(view.barred) * 10
        assert ("barred", f"no card may go here (stopper zone: {zone})") in legend_items(view)
        assert count(legend_band(state, image), BARRED) > 0  # the legend's sample cross
    plain = FlankState(first=0)
    plain.apply(0, "F4*")
    image = opened(render_png(plain.observe(None), NAMES))
    assert count(image, BARRED) == 0
    assert "barred" not in [mark for mark, _ in legend_items(plain.observe(None))]


def test_the_legend_explains_the_last_card_and_the_other_marks() -> None:
    start = FlankState(first=0)
    image = opened(render_png(start.observe(None), NAMES))
    assert [mark for mark, _ in legend_items(start.observe(None))] == ["legal"]
    assert count(legend_band(start, image), LAST) == 0  # no last card yet, no gold key
    state = FlankState(first=0)
    state.apply(0, "F4*")
    view = state.observe(None)
    marks = dict(legend_items(view))
    assert marks == {"last": "last card laid", "flipped": "flipped by it",
                     "stopper": "stopper", "legal": "O may lay here"}
    image = opened(render_png(view, NAMES))
    band = legend_band(state, image)
    assert count(band, LAST) > 0 and count(band, STOPPER) > 0  # the legend's samples
    # The gold frame on the grid is around the card laid last.
    place = layout(view, NAMES)
    x, y = place.corner(*parse_cell("F4"))
    assert image.getpixel((x + 2, y + place.cell // 2)) == LAST


def test_the_first_player_is_on_top_with_the_black_disc() -> None:
    for first in (0, 1):
        state = FlankState(first=first)
        image = opened(render_png(state.observe(None), NAMES))
        # The header's discs: row one is black (the first player), row two white.
        assert image.getpixel((17, 17)) == DISC[0] and image.getpixel((17, 39)) == DISC[1]
        place = layout(state.observe(None), NAMES)
        # Legal cells are dotted in the mover's colour: black moves first.
        assert image.getpixel(place.centre(*parse_cell("F4"))) == DISC[0]
        state.apply(first, "F4")
        view = state.observe(None)
        image = opened(render_png(view, NAMES))
        place = layout(view, NAMES)
        assert {image.getpixel(place.centre(*cell)) for cell in view.legal} == {DISC[1]}


def test_the_text_board_shows_coordinates_on_every_side() -> None:
    text = say(render_text(FlankState({"board": 8}, first=0).observe(None), NAMES), "en")
    lines = text.split("\n")
    assert lines[0].split() == list("ABCDEFGH") == lines[9].split()
    assert [line.split()[0] for line in lines[1:9]] == [str(n) for n in range(1, 9)]
    assert [line.split()[-1] for line in lines[1:9]] == [str(n) for n in range(1, 9)]
    assert len({len(line) for line in lines[:10]}) == 1  # the grid; then the words
    assert "To move: X Ada" in text


def test_the_text_board_marks_stoppers_the_last_move_and_legal_cells() -> None:
    state = FlankState(first=0)
    state.apply(0, "F4*")
    text = say(render_text(state.observe(None), NAMES), "en")
    assert "[X]" in text  # the stoppered card on F4
    assert "Last: X F4*, flipped 1" in text
    assert "+" in text  # white's legal cell D3
    state.apply(1, "D3")
    text = say(render_text(state.observe(None), NAMES), "en")
    assert "(O)" in text and "Last: O D3, flipped 1" in text
    assert "To move: X Ada" in text


def test_the_text_board_follows_the_seat_playing_black() -> None:
    state = FlankState({"stopper_zone": "ring"}, first=1)
    lines = say(render_text(state.observe(None), NAMES), "en").split("\n")
    assert lines[-3:] == ["X Bo: 2 showing, 23 cards left, 6 stoppers",
                          "O Ada: 2 showing, 23 cards left, 5 stoppers", "To move: X Bo"]
    state.apply(1, "F4*")
    text = say(render_text(state.observe(None), NAMES), "en")
    assert "Last: X F4*, flipped 1" in text and "To move: O Ada" in text
    assert "#" in text  # the ring around the stopper on F4


def test_the_text_board_names_negative_cells() -> None:
    state = FlankState.from_notation("at=A1 rows=OX/X.")
    state.apply(0, "-A1")
    lines = say(render_text(state.observe(None), NAMES), "en").split("\n")
    assert lines[0].split()[:3] == ["-B", "-A", "A"]
    assert [line.split()[0] for line in lines[1:4]] == ["-1", "1", "2"]
    assert len({len(line) for line in lines[:5]}) == 1


def test_the_text_board_gives_the_result() -> None:
    state = FlankState.from_notation("board=4 rows=XX../..../..../....")
    state.apply(0, "pass")
    state.apply(1, "pass")
    text = say(render_text(state.observe(None), NAMES), "en")
    assert "Game over: X Ada wins 2–0" in text and "To move" not in text
    draw = FlankState({"cards": 2}, first=0)
    assert "Game over: a draw, 2–2" in say(render_text(draw.observe(None), NAMES), "en")


def test_the_table_embed_names_black_first_whoever_sits_in_seat_0() -> None:
    row = MatchRow(id=7, game="flank", options={}, seed=1, guild_id=1, channel_id=2, host_id=3,
                   max_seats=2, status="active",
                   seats=[SeatRow(0, 3, "Ada"), SeatRow(1, None, "Bo", is_bot=True)])
    match = LiveMatch(row=row, info=FLANK, state=FlankState(first=1))
    presenter = FlankPresenter()
    embed, files = presenter.board(match)
    assert embed.title == "Flank — ⚫ Bo (normal) 🤖 vs ⚪ Ada"
    assert [field.name for field in embed.fields] == ["⚫ Bo", "⚪ Ada"]
    assert files and files[0].filename.endswith(".png")
    match.state.apply(1, "F4")
    observation = match.state.observe(0)
    private = PrivateView(match_id=7, game="flank", seat=0, step=match.state.step,
                          observe=lambda: observation, decision=match.state.decision_for(0),
                          names=("Ada", "Bo"))
    assert "It is your turn (⚪)" in presenter.private_text(match, private)


def test_flank_draws_its_text_only_through_the_glyph_safe_helper() -> None:
    from pathlib import Path

    import bot.games.flank.pictures as flank_render
    from tests.images import direct_text_calls

    assert direct_text_calls(Path(flank_render.__file__)) == []
    picture = render_png(FlankState(first=0).observe(None), ["Ada — 🂠", "{boss}"])
    assert picture.startswith(b"\x89PNG")


# --- marks seen on a phone -------------------------------------------------------------------


def last_laid_by(colour: int) -> FlankState:
    """A game of eight by eight, some twenty cards in, whose last card laid is ``colour``'s
    and flipped some."""
    for moves in range(18, 40):
        state = played({"board": 8}, moves, seed=3)
        view = state.observe(None)
        if view.last_move is not None and view.cells[view.last_move][0] == colour \
                and view.flipped:
            return state
    raise AssertionError("no such game")


@pytest.mark.parametrize("colour", [0, 1])
def test_a_flipped_card_is_marked_clearly_on_either_colour(colour: int) -> None:
    state = last_laid_by(colour)
    view = state.observe(None)
    image = opened(render_png(view, NAMES))
    place = layout(view, NAMES)
    for cell in view.flipped:
        assert view.cells[cell][0] == colour
        cx, cy = place.centre(*cell)
        inner = int(place.cell * 0.28)  # well inside the disc: no rim, no table
        box = (cx - inner, cy - inner, cx + inner, cy + inner)
        # A mark that stands out from the disc (contrast 3:1 at least) over a good part of
        # it, not a dot of the rim's colour a few pixels wide.
        assert pixels_contrasting(image, box, DISC[colour]) >= place.cell ** 2 * 0.05
    for cell, (disc, _) in view.cells.items():
        if cell not in view.flipped and cell != view.last_move:
            cx, cy = place.centre(*cell)
            box = (cx - 6, cy - 6, cx + 6, cy + 6)
            assert pixels_contrasting(image, box, DISC[disc]) == 0  # unflipped: plain


@pytest.mark.parametrize("colour", [0, 1])
def test_the_legend_draws_its_samples_in_the_colour_they_mark(colour: int) -> None:
    state = last_laid_by(colour)
    view = state.observe(None)
    image = opened(render_png(view, NAMES))
    keys = dict(legend_keys(view, NAMES))
    assert {"last", "flipped"} <= keys.keys()
    for mark in ("last", "flipped"):
        x, y = keys[mark]
        assert image.getpixel((x + KEY // 2 - 4, y + KEY // 2 - 4)) == DISC[colour], mark
    x, y = keys["last"]
    assert image.getpixel((x + 1, y + KEY // 2)) == LAST  # the gold frame, as on the grid
    x, y = keys["flipped"]
    box = (x + KEY // 2 - 3, y + KEY // 2 - 3, x + KEY // 2 + 3, y + KEY // 2 + 3)
    assert pixels_contrasting(image, box, DISC[colour]) >= 12  # the flipped mark, as on the grid


# --- in every language ----------------------------------------------------------------------


def pseudo_pictures() -> list[tuple[FlankState, list[str]]]:
    """Tables whose words take the most room: a new game, a ring of barred cells with
    every legend item, a crowded big board late in the game with long names, a finished
    game and a forfeit."""
    ring = FlankState({"stopper_zone": "ring"}, first=0)
    ring.apply(0, "F4*")
    crowded = played({"board": 26}, 200, seed=2)
    finished = FlankState.from_notation("board=4 rows=XX../..../..../....")
    finished.apply(0, "pass")
    finished.apply(1, "pass")
    forfeit = FlankState({"board": 6}, first=1)
    forfeit.resign(0)
    long = ["Ŵ" * 40, "Ω" * 40]
    return [(FlankState(first=0), NAMES), (ring, NAMES), (crowded, long),
            (played({"board": 8}, 20, seed=5), long), (finished, NAMES), (forfeit, NAMES)]


@pytest.mark.parametrize("locale", ["qps", "pt_BR"])
def test_the_picture_has_room_for_longer_words(locale: str) -> None:
    """Words 40 % longer (the pseudo-locale), or Portuguese, stay inside the picture and
    apart: the picture grows or wraps its legend to fit them."""
    pseudo.enable()
    try:
        with speaking(locale), pictures_checked() as placed:
            for state, names in pseudo_pictures():
                render_png(state.observe(None), names)
    finally:
        pseudo.enable(False)
    said = " ".join(text.text for text in placed)
    assert ("⟦" in said) == (locale == "qps")
    if locale == "pt_BR":
        assert "na mesa" in said and "última carta colocada" in said


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_names_in_the_text_board_stay_as_typed(locale: str) -> None:
    """A name is data, never a template, in either language (the lines are phrases)."""
    state = FlankState({"board": 4}, first=0)
    text = say(render_text(state.observe(None), ["{rest}", "{first} *Bo*"]), locale)
    assert "X {rest}:" in text and "O {first} *Bo*:" in text
    assert text.count("\n") == 8  # six lines of grid, two of counts, whose turn
