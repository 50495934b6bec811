"""Charts as SVG geometry for the templates to draw (``templates/_charts.html``): a
player's rating over their rated matches, and a leaderboard page's ratings as bars.
The axes' round values are the Discord chart's (:mod:`bot.pictures.chart`), so both
sides number them alike; colours come from classes in ``site.css``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from bot.i18n import number as written
from bot.pictures.chart import tick_label, x_ticks, y_ticks

WIDTH, HEIGHT = 600, 240
"""The line chart's drawing box (it scales to its column)."""
LEFT, RIGHT, TOP, BOTTOM = 48, 56, 12, 32
"""Room around the plot: the y-axis labels, the newest value, the x-axis labels."""
BAR_HEIGHT, BAR_GAP, BAR_LABELS = 22, 6, 150
"""A bar's thickness, the space between bars, and the room for the names before them."""


@dataclass(frozen=True)
class Tick:
    """A labelled value on an axis, where it is drawn."""

    at: float
    label: str


@dataclass(frozen=True)
class Series:
    """One line of a chart: its label, its points, and its newest value."""

    label: str
    points: str
    """The polyline's ``points`` attribute."""
    dots: tuple[tuple[float, float], ...]
    last: tuple[float, float]
    last_label: str
    number: int
    """Its place among the chart's lines, from 1 (its colour: ``chart-line-N``)."""


@dataclass(frozen=True)
class LineChart:
    """Series of values drawn as lines over shared axes (x: the nth value of each)."""

    width: int
    height: int
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    left: int
    right: float
    top: int
    bottom: float


MAX_SERIES = 5
"""Most lines on one chart (each has a colour of its own in site.css)."""


def localised(plain: str) -> str:
    """A number written plainly (``-0.5``, ``20``) the way the locale spoken writes it,
    with the same decimals; anything else as it is.

    >>> localised("-0.5"), localised("1200"), localised("n/a")
    ('-0.5', '1,200', 'n/a')
    """
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return plain
    _, _, decimals = plain.partition(".")
    return written(value, None, digits=len(decimals))


def line_chart(values: Sequence[float]) -> LineChart | None:
    """The chart of ``values`` in order (``None`` for no values)."""
    return lines_chart([("", values)])


def lines_chart(series: Sequence[tuple[str, Sequence[float]]]) -> LineChart | None:
    """The chart of each ``(label, values)`` (at most :data:`MAX_SERIES`, those with
    values), the nth value of each above the same x; ``None`` if there are no values."""
    series = [(label, values) for label, values in series if values][:MAX_SERIES]
    if not series:
        return None
    every = [v for _, values in series for v in values]
    lo, hi = min(every), max(every)
    if hi - lo < 1e-9:
        room = max(1.0, abs(hi) * 0.1)
        lo, hi = lo - room, hi + room
    ticks, step = y_ticks(lo, hi)
    lo, hi = min(ticks[0], lo), max(ticks[-1], hi)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    longest = max(len(values) for _, values in series)

    def y_of(value: float) -> float:
        return round(bottom - (value - lo) / (hi - lo) * (bottom - TOP), 1)

    def x_of(index: int) -> float:
        if longest == 1:
            return round((LEFT + right) / 2, 1)
        return round(LEFT + index / (longest - 1) * (right - LEFT), 1)

    spaced = (right - LEFT) / max(1, longest - 1) >= 8
    lines = []
    for number, (label, values) in enumerate(series, start=1):
        dots = tuple((x_of(i), y_of(v)) for i, v in enumerate(values))
        lines.append(Series(label=label, points=" ".join(f"{x},{y}" for x, y in dots),
                            dots=dots if spaced else (), last=dots[-1],
                            last_label=written(values[-1], None, digits=1), number=number))
    return LineChart(
        width=WIDTH, height=HEIGHT, series=tuple(lines),
        y_ticks=tuple(Tick(y_of(t), localised(tick_label(t, step))) for t in ticks),
        x_ticks=tuple(Tick(x_of(n - 1), str(n)) for n in x_ticks(longest)),
        left=LEFT, right=right, top=TOP, bottom=bottom)


@dataclass(frozen=True)
class Bar:
    """One bar: its label, where it starts and how long it is."""

    y: float
    x: float
    length: float
    label: str
    value: str


@dataclass(frozen=True)
class BarChart:
    """Values as horizontal bars from a zero line."""

    width: int
    height: int
    bars: tuple[Bar, ...]
    zero: float
    label_right: int
    bar_height: int


def bar_chart(items: Sequence[tuple[str, float]]) -> BarChart | None:
    """Bars for ``(label, value)`` pairs in order (``None`` for none); negative values
    reach left of the zero line."""
    if not items:
        return None
    lo = min(0.0, *(v for _, v in items))
    hi = max(0.0, *(v for _, v in items))
    span = (hi - lo) or 1.0
    start, end = BAR_LABELS + 8, WIDTH - RIGHT
    scale = (end - start) / span
    zero = round(start - lo * scale, 1)
    bars = []
    for row, (label, value) in enumerate(items):
        x = zero if value >= 0 else round(zero + value * scale, 1)
        bars.append(Bar(y=row * (BAR_HEIGHT + BAR_GAP) + BAR_GAP, x=x,
                        length=max(1.0, round(abs(value) * scale, 1)), label=label,
                        value=written(value, None, digits=1)))
    return BarChart(width=WIDTH, height=len(items) * (BAR_HEIGHT + BAR_GAP) + BAR_GAP,
                    bars=tuple(bars), zero=zero, label_right=BAR_LABELS,
                    bar_height=BAR_HEIGHT)
