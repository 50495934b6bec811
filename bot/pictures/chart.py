"""A player's rating history as a small line chart, as a PNG for a Discord embed.

The picture (:data:`WIDTH` × :data:`HEIGHT`, sized to be read on a phone) has the
night-blue background of the games' tables. At the top are the title and, under it in
grey, the subtitle. Below them is the plot: the rating after each rated match, oldest
on the left, joined by a blue line with a small dot at each match (no dots when the
matches are too many to tell apart). The newest rating, at the right end, is a gold dot
with its value written beside it in gold. The y-axis on the left has 3 to 5 round
values with faint grid lines across the plot; a dashed grey line marks 0 when 0 is
within the plotted range. The x-axis along the bottom is labelled "rated matches" (in the
locale spoken, as are the numbers' decimal marks) and numbers a few of them (the first
is 1, the newest is the count of matches).

A single match is drawn as a single dot in the middle; a series that never moves is
drawn as a level line in the middle of a small range around its value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.i18n import number, tr
from bot.pictures.common import SS, Colour, draw_text, fit, font, png

WIDTH, HEIGHT = 640, 300
"""Size of the chart, in pixels."""
PAD = 12
MAX_TICKS = 5
"""Most labelled values on the y-axis (there are at least 3)."""
MAX_X_TICKS = 6
"""Most numbered matches on the x-axis, near enough."""
DOT_SPACING = 8
"""Fewest pixels between neighbouring matches for each to get a dot."""

BG = (22, 26, 40)
GRID = (36, 42, 64)
INK = (236, 238, 244)
DIM = (146, 152, 172)
FAINT = (92, 98, 122)
LINE = (108, 158, 236)
GOLD = (246, 192, 52)
"""The newest rating's dot and value."""

_NICE = (1.0, 2.0, 5.0)
"""Mantissas of the steps between y-axis values (times a power of ten)."""


# --- axes ----------------------------------------------------------------------------------


def y_ticks(lo: float, hi: float) -> tuple[list[float], float]:
    """Round values for a y-axis covering ``lo`` to ``hi`` (``lo < hi``): 3 to
    :data:`MAX_TICKS` of them, evenly spaced, the first at or below ``lo`` and the last
    at or above ``hi``; and the step between them.

    >>> y_ticks(0.3, 9.6)
    ([0.0, 5.0, 10.0], 5.0)
    >>> y_ticks(-12.0, 31.0)
    ([-20.0, 0.0, 20.0, 40.0], 20.0)
    """
    exponent = math.floor(math.log10((hi - lo) / MAX_TICKS)) - 1
    while True:
        for mantissa in _NICE:
            step = mantissa * 10.0 ** exponent
            first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
            if last - first + 1 <= MAX_TICKS:
                return [k * step + 0.0 for k in range(first, last + 1)], step
        exponent += 1


def tick_label(value: float, step: float) -> str:
    """``value`` written with as many decimals as ``step`` needs (none for whole steps).

    >>> tick_label(20.0, 20.0), tick_label(-0.5, 0.5), tick_label(0.04, 0.02), tick_label(-0.0, 5.0)
    ('20', '-0.5', '0.04', '0')
    """
    decimals = 0
    while decimals < 6 and abs(round(step, decimals) - step) > 1e-9 * max(1.0, abs(step)):
        decimals += 1
    text = f"{value:.{decimals}f}"
    return "0" if float(text) == 0 else _local(text)


def _local(text: str) -> str:
    """A number written with a point (``-0.5``) as the locale spoken writes it (``-0,5``
    in pt-BR)."""
    return text.replace(".", number(0.5, None, digits=1)[1])


def x_ticks(count: int) -> list[int]:
    """Match numbers (1-based) to label on an x-axis of ``count`` matches: 1, then
    multiples of a round step, about :data:`MAX_X_TICKS` in all, and ``count`` itself.

    >>> x_ticks(1), x_ticks(5), x_ticks(12), x_ticks(300)
    ([1], [1, 2, 3, 4, 5], [1, 2, 4, 6, 8, 10, 12], [1, 50, 100, 150, 200, 250, 300])
    """
    step, scale = 1, 1
    while count / step > MAX_X_TICKS:
        for mantissa in (2, 5, 10):
            step = mantissa * scale
            if count / step <= MAX_X_TICKS:
                break
        scale *= 10
    ticks = [1, *range(step, count + 1, step)]
    ticks = sorted(set(ticks))
    if ticks[-1] != count:
        if count - ticks[-1] < step / 2 and len(ticks) > 1 and ticks[-1] != 1:
            ticks[-1] = count
        else:
            ticks.append(count)
    return ticks


def _value_range(values: Sequence[float]) -> tuple[float, float]:
    """The span of ``values`` with a little room above and below (a flat series gets
    a range around its value)."""
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        room = max(1.0, abs(hi) * 0.1)
        return lo - room, hi + room
    room = (hi - lo) * 0.08
    return lo - room, hi + room


# --- the picture ---------------------------------------------------------------------------


def render_rating_chart(ordinals: Sequence[float], *, title: str, subtitle: str = "") -> bytes:
    """A PNG line chart of a player's rating (``ordinals``, the rating after each rated
    match, oldest first), headed by ``title`` and ``subtitle``; see the module's
    docstring for what it shows.

    Raises :class:`ValueError` when ``ordinals`` is empty or holds a value that is not a
    finite number.
    """
    values = [float(v) for v in ordinals]
    if not values:
        raise ValueError("no ratings to chart")
    if not all(math.isfinite(v) for v in values):
        raise ValueError("ratings must be finite numbers")

    image = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(image)
    title_font, subtitle_font, tick_font = font(18), font(13), font(12)
    value_font = font(14)

    # Heading.
    draw_text(draw, (PAD, PAD + 9), fit(title, title_font, WIDTH - 2 * PAD), title_font, INK,
              anchor="lm")
    top = PAD + 30
    if subtitle:
        draw_text(draw, (PAD, top + 6), fit(subtitle, subtitle_font, WIDTH - 2 * PAD),
                  subtitle_font, DIM, anchor="lm")
        top += 20
    top += 10

    # Plot area: y labels on the left, room on the right for the newest value.
    ticks, step = y_ticks(*_value_range(values))
    labels = [tick_label(t, step) for t in ticks]
    last_label = _value_text(values[-1])
    left = PAD + max(tick_font.getlength(label) for label in labels) + 8
    right = WIDTH - PAD - value_font.getlength(last_label) - 14
    bottom = HEIGHT - 40
    lo, hi = ticks[0], ticks[-1]

    def y_of(value: float) -> float:
        return bottom - (value - lo) / (hi - lo) * (bottom - top)

    def x_of(index: int) -> float:
        if len(values) == 1:
            return (left + right) / 2
        return left + index * (right - left) / (len(values) - 1)

    # Grid, y labels and the zero line.
    for tick, label in zip(ticks, labels, strict=True):
        y = round(y_of(tick))
        draw.line([(left, y), (right, y)], fill=GRID, width=1)
        draw_text(draw, (left - 8, y), label, tick_font, DIM, anchor="rm")
    if lo <= 0 <= hi:
        y = round(y_of(0))
        _dashed(draw, left, right, y, FAINT)

    # X axis: its line, numbered matches and its name.
    draw.line([(left, bottom), (right, bottom)], fill=FAINT, width=1)
    for match in x_ticks(len(values)):
        x = round(x_of(match - 1))
        draw.line([(x, bottom), (x, bottom + 4)], fill=FAINT, width=1)
        draw_text(draw, (x, bottom + 6), str(match), tick_font, DIM, anchor="mt")
    axis = fit(tr("chart.rated_matches"), tick_font, right - left)
    draw_text(draw, ((left + right) / 2, HEIGHT - PAD + 2), axis, tick_font, DIM, anchor="ms")

    # The line and its dots, drawn big and scaled down for smooth edges.
    points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    _draw_series(image, points)

    # The newest rating's value beside its dot, kept inside the picture.
    x, y = points[-1]
    y = min(max(y, top), bottom)
    draw_text(draw, (x + 10, y), last_label, value_font, GOLD, anchor="lm")
    return png(image)


def _value_text(value: float) -> str:
    """A rating as written beside the newest dot: one decimal.

    >>> _value_text(12.345), _value_text(-0.04)
    ('12.3', '0.0')
    """
    text = f"{value:.1f}"
    return _local("0.0" if float(text) == 0 else text)


def _dashed(draw: ImageDraw.ImageDraw, x0: float, x1: float, y: int, colour: Colour,
            dash: int = 6, gap: int = 4) -> None:
    """A horizontal dashed line at ``y`` from ``x0`` to ``x1``."""
    x = x0
    while x < x1:
        draw.line([(x, y), (min(x + dash, x1), y)], fill=colour, width=1)
        x += dash + gap


def _draw_series(image: Image.Image, points: Sequence[tuple[float, float]]) -> None:
    """Paint the rating line over ``image``: the segments, a dot per point when they are
    far enough apart, and the newest point in gold with a dark rim."""
    layer = Image.new("RGBA", (image.width * SS, image.height * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    big = [(x * SS, y * SS) for x, y in points]
    if len(big) > 1:
        draw.line(big, fill=LINE, width=2 * SS, joint="curve")
        spacing = (points[-1][0] - points[0][0]) / (len(points) - 1)
        if spacing >= DOT_SPACING:
            r = 2.5 * SS
            for x, y in big[:-1]:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=LINE)
    x, y = big[-1]
    rim, r = 7 * SS, 5 * SS
    draw.ellipse((x - rim, y - rim, x + rim, y + rim), fill=BG)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD)
    small = layer.resize(image.size, Image.Resampling.LANCZOS)
    image.paste(small, (0, 0), small)

