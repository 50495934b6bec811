"""Flank's pictures: the PNG of the table and the monospace text board."""

from __future__ import annotations

import io
import random
import time

from PIL import Image

from bot.render.flank import render_png
from rules.flank import FlankState
from rules.flank.text import render_text

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
    image = picture(FlankState({"board": 8}))
    assert image.format == "PNG" and image.width >= 8 * 48 and image.height >= 8 * 48


def test_the_png_grows_with_the_table() -> None:
    small = picture(FlankState({"board": 6}))
    large = picture(FlankState({"board": 12}))
    assert large.width > small.width and large.height > small.height
    start = picture(FlankState({"stoppers": 0, "cards": 60}))
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
    resigned = FlankState()
    resigned.apply(0, "resign")
    picture(resigned)


def test_the_png_is_quick() -> None:
    state = played({"board": 8}, 20)
    render_png(state.observe(None), NAMES)  # fonts load once
    started = time.perf_counter()
    for _ in range(5):
        render_png(state.observe(None), NAMES)
    assert (time.perf_counter() - started) / 5 < 0.5  # a sanity ceiling; typically ~10 ms


def test_the_text_board_shows_coordinates_on_every_side() -> None:
    text = render_text(FlankState({"board": 8}).observe(None), NAMES)
    lines = text.split("\n")
    assert lines[0].split() == list("ABCDEFGH") == lines[9].split()
    assert [line.split()[0] for line in lines[1:9]] == [str(n) for n in range(1, 9)]
    assert [line.split()[-1] for line in lines[1:9]] == [str(n) for n in range(1, 9)]
    assert len({len(line) for line in lines}) == 1
    assert "To move: X Ada" in text


def test_the_text_board_marks_stoppers_the_last_move_and_legal_cells() -> None:
    state = FlankState()
    state.apply(0, "F4*")
    text = render_text(state.observe(None), NAMES)
    assert "[X]" in text  # the stoppered card on F4
    assert "Last: X F4*, flipped 1" in text
    assert "+" in text  # white's legal cell D3
    state.apply(1, "D3")
    text = render_text(state.observe(None), NAMES)
    assert "(O)" in text and "Last: O D3, flipped 1" in text
    assert "To move: X Ada" in text


def test_the_text_board_names_negative_cells() -> None:
    state = FlankState.from_notation("at=A1 rows=OX/X.")
    state.apply(0, "-A1")
    lines = render_text(state.observe(None), NAMES).split("\n")
    assert lines[0].split()[:3] == ["-B", "-A", "A"]
    assert [line.split()[0] for line in lines[1:4]] == ["-1", "1", "2"]
    assert len({len(line) for line in lines}) == 1


def test_the_text_board_gives_the_result() -> None:
    state = FlankState.from_notation("board=4 rows=XX../..../..../....")
    state.apply(0, "pass")
    state.apply(1, "pass")
    text = render_text(state.observe(None), NAMES)
    assert "Game over: X Ada wins 2–0" in text and "To move" not in text
    draw = FlankState({"cards": 2})
    assert "Game over: a draw, 2–2" in render_text(draw.observe(None), NAMES)
