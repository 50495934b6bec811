"""The rating chart: a PNG line chart of a player's rating after each rated match."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from PIL import Image

import bot.pictures.chart as chart_render
from bot.pictures.chart import (
    BG,
    GOLD,
    HEIGHT,
    MAX_TICKS,
    WIDTH,
    render_rating_chart,
    x_ticks,
    y_ticks,
)
from tests.images import count, direct_text_calls, drawn_text, opened, undrawable


def near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 16) -> int:
    """How many pixels of ``image`` are within ``tolerance`` of ``colour`` on every
    channel (the edges of smooth shapes blend into the background)."""
    return sum(n for n, pixel in image.getcolors(image.width * image.height) or ()
               if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True)))


def walk(n: int) -> list[float]:
    """A wandering rating of ``n`` matches that dips below zero."""
    return [8 * math.sin(k / 9) + k / 20 - 3 for k in range(n)]


def chart(ordinals: list[float], subtitle: str = "Eclipse · 12 rated matches") -> Image.Image:
    return opened(render_rating_chart(ordinals, title="Ada", subtitle=subtitle))


def test_opens_at_its_size_on_the_dark_background() -> None:
    image = chart([0.0, 1.5, 3.2, 2.8, 4.9])
    assert image.size == (WIDTH, HEIGHT) == (640, 300)
    assert max(image.getcolors(WIDTH * HEIGHT) or [])[1] == BG


@pytest.mark.parametrize("ordinals", [
    [3.7],                          # a single match: a single dot
    walk(300),                      # hundreds: a line without dots
    [5.0] * 10,                     # flat
    [0.0] * 4,                      # flat at zero
    [-3.0, -5.5, -8.0, -7.2, -12.6],  # all negative
    [-250.0, 1000.0],               # wide range
    [12.0, 12.0001],                # tiny range
], ids=["one", "300", "flat", "flat-zero", "negative", "wide", "tiny"])
def test_series_of_every_shape_render_with_the_newest_point_in_gold(
        ordinals: list[float]) -> None:
    image = chart(ordinals)
    assert image.size == (WIDTH, HEIGHT)
    assert count(image, GOLD) >= 10    # the newest dot's middle, exactly the highlight colour
    assert near(image, GOLD) >= 50     # the dot and its value beside it


def test_without_a_subtitle_and_with_awkward_text() -> None:
    image = opened(render_rating_chart([1.0, 2.0], title="🎲 " + "x" * 200))
    assert image.size == (WIDTH, HEIGHT)


def test_no_chart_draws_a_glyph_the_font_lacks() -> None:
    with drawn_text() as calls:
        render_rating_chart([-3.0, 1.0], title="José — 🎲 博", subtitle="Eclipse – 2×")
    assert calls and not undrawable(calls)
    assert "José - ? ?" in {call.text for call in calls}


def test_every_text_the_chart_draws_goes_through_the_helper() -> None:
    assert direct_text_calls(Path(chart_render.__file__)) == []


def test_different_series_give_different_pictures() -> None:
    pictures = {render_rating_chart(series, title="Ada") for series in (
        [0.0, 1.0, 2.0], [0.0, 2.0, 1.0], [0.0, 1.0, 2.5], walk(40), walk(41), [1.0])}
    assert len(pictures) == 6
    assert render_rating_chart([0.0, 1.0], title="Ada") != \
        render_rating_chart([0.0, 1.0], title="Bo")
    assert render_rating_chart([0.0, 1.0], title="Ada") == \
        render_rating_chart([0.0, 1.0], title="Ada")


def test_the_gold_dot_sits_at_the_newest_point() -> None:
    rising, falling = chart([0.0, 5.0, 10.0]), chart([10.0, 5.0, 0.0])

    def gold_rows(image: Image.Image) -> list[int]:
        return [y for y in range(image.height)
                if any(image.getpixel((x, y)) == GOLD for x in range(image.width))]

    assert min(gold_rows(rising)) < min(gold_rows(falling))


def test_empty_or_broken_series_are_refused() -> None:
    for bad in ([], [1.0, math.nan], [math.inf]):
        with pytest.raises(ValueError):
            render_rating_chart(bad, title="Ada")


@pytest.mark.parametrize("lo, hi", [
    (0.3, 9.6), (-12.0, 31.0), (-1.0, 1.0), (99.0, 101.0), (0.0, 1000.0), (-0.002, 0.013),
    (-1e6, 3e6), (4.2, 4.21),
])
def test_y_axis_has_three_to_five_round_values_covering_the_range(lo: float,
                                                                 hi: float) -> None:
    ticks, step = y_ticks(lo, hi)
    assert 3 <= len(ticks) <= MAX_TICKS
    assert ticks[0] <= lo and ticks[-1] >= hi
    assert all(math.isclose(b - a, step) for a, b in itertools.pairwise(ticks))
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, m) for m in (1, 2, 5))


@pytest.mark.parametrize("n", [1, 2, 5, 7, 12, 13, 50, 99, 300, 301, 1000])
def test_x_axis_numbers_a_few_matches_from_the_first_to_the_newest(n: int) -> None:
    ticks = x_ticks(n)
    assert ticks[0] == 1 and ticks[-1] == n
    assert ticks == sorted(set(ticks))
    assert len(ticks) <= 8


def test_its_words_fit_in_the_pseudo_locale_and_numbers_are_the_locale_s() -> None:
    """Drawn in the pseudo-locale (words 40 % longer), no text runs out of the chart or
    over another; in pt-BR the axis is Portuguese and decimals have a comma."""
    from bot.i18n import pseudo, speaking, tr
    from tests.pseudo import pictures_checked

    values = [-3.25, 0.5, 4.75, 2.0, 9.5, 12.25]
    pseudo.enable()
    try:
        with speaking("qps"), pictures_checked() as placed:
            render_rating_chart(values, title="Ŵ" * 80, subtitle=tr("stats.chart_subtitle"))
        assert any("⟦" in one.text for one in placed)
    finally:
        pseudo.enable(False)
    with speaking("pt_BR"), pictures_checked() as placed:
        render_rating_chart(values, title="Zé — Flank", subtitle=tr("stats.chart_subtitle"))
    texts = [one.text for one in placed]
    assert "partidas ranqueadas" in texts and "12,2" in texts, texts
    assert "12.2" not in texts and chart_render.tick_label(-2.5, 2.5) == "-2.5"
