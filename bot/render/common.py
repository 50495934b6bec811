"""What the PNG renderers share: the font, text made safe for it, text fitted to a
width, names and results in words, shapes turned and supersampled, and the PNG itself.

Every picture is drawn with Pillow's built-in font (:func:`font`), so no font file
ships with the bot. It has no emoji and few symbols, and draws an empty box for a
character it lacks, so text goes through :func:`clean` before it is drawn, or through
:func:`ascii_text`, which first writes the games' symbols (♂, →, ☀, ...) in words.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from rules.core import Outcome

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
Colour = tuple[int, int, int]
Point = tuple[float, float]

MAX_SIDE = 1400
"""Longest side of a picture :func:`png` sends, in pixels (Discord shows larger
pictures scaled down)."""
MAX_NAME = 24
"""Longest player name, in characters, that :func:`short` leaves whole."""
SS = 4
"""Supersampling factor for shapes: drawn this much bigger, then scaled down."""

_ASCII = str.maketrans({"–": "-", "—": "-", "×": "x"})
_SYMBOL_WORDS = str.maketrans({
    "→": "->", "←": "<-", "≤": "<=", "≥": ">=", "≠": "!=", "−": "-",
    "♂": "male", "♀": "female", "☀": "sun", "🌙": "moon", "🛡": "shield",
    "⚡": "bolt", "⚙": "cog", "🦋": "butterfly", "⭐": "star", "\ufe0f": None,
})


# --- the font and text it can draw ---------------------------------------------------------


@lru_cache(maxsize=16)
def font(size: int) -> Font:
    """Pillow's built-in font at ``size`` pixels (loaded once per size)."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4096)
def drawable(ch: str) -> bool:
    """Whether the built-in font has a glyph for ``ch`` (else it draws an empty box).

    >>> drawable("A"), drawable(" "), drawable("\\ue000")
    (True, True, False)
    """
    return ch.isspace() or _glyph(ch) != _glyph("\ue000")


@lru_cache(maxsize=4096)
def _glyph(ch: str) -> bytes:
    """The pixels of ``ch`` drawn alone, to compare with a private-use character's box."""
    image = Image.new("L", (24, 24))
    ImageDraw.Draw(image).text((2, 2), ch, font=font(16), fill=255)
    return image.tobytes()


def clean(text: str) -> str:
    """``text`` with dashes and ``×`` in ASCII and characters the built-in font lacks
    (emoji, say) replaced by ``?``.

    >>> clean("Bo – 3×4 🎲")
    'Bo - 3x4 ?'
    """
    text = text.translate(_ASCII)
    return "".join(ch if ch.isascii() or drawable(ch) else "?" for ch in text)


def ascii_text(text: str) -> str:
    """``text`` ready for the built-in font: symbols in words, anything else it lacks as
    ``?`` (see :func:`clean`).

    >>> ascii_text("defender ♂; 3 − 1 ≤ 2 → maneuver")
    'defender male; 3 - 1 <= 2 -> maneuver'
    """
    return clean(text.translate(_SYMBOL_WORDS))


# --- names and results ---------------------------------------------------------------------


def short(name: str) -> str:
    """``name`` :func:`clean`\\ ed and cut to :data:`MAX_NAME` characters with an ellipsis.

    >>> short("Ada 🎲"), short("x" * 40)[-3:], len(short("x" * 40))
    ('Ada ?', 'xx…', 24)
    """
    name = clean(name)
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def seat_name(names: Sequence[str], seat: int, word: str = "Seat") -> str:
    """Seat ``seat``'s display name through :func:`ascii_text`, or ``word`` and the
    seat's number when ``names`` has no name for it or a blank one.

    >>> seat_name(["Ada ♀", " "], 0), seat_name(["Ada ♀", " "], 1), seat_name([], 0, "Player")
    ('Ada female', 'Seat 2', 'Player 1')
    """
    if seat < len(names) and names[seat].strip():
        return ascii_text(names[seat])
    return f"{word} {seat + 1}"


def game_over(outcome: Outcome, winners: Sequence[str]) -> str:
    """The result in a line: a draw, who wins or who win together, and the reason in
    brackets; ``winners`` are the display names of ``outcome.winners``.

    >>> game_over(Outcome(places=(2, 1), scores=None, reason="more cards"), ["Bo"])
    'Game over: Bo wins (more cards)'
    >>> game_over(Outcome(places=(1, 1, 3), scores=None, reason=""), ["Ada", "Bo"])
    'Game over: Ada and Bo win'
    """
    if outcome.is_draw:
        head = "Game over: a draw"
    elif len(winners) == 1:
        head = f"Game over: {winners[0]} wins"
    else:
        head = "Game over: " + " and ".join(winners) + " win"
    return head + (f" ({ascii_text(outcome.reason)})" if outcome.reason else "")


# --- text fitted to a width ----------------------------------------------------------------


def fit(text: str, font: Font, width: float) -> str:
    """``text`` cut short with an ellipsis so it is at most ``width`` pixels long in
    ``font``."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, font: Font, width: float) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` pixels long in ``font``
    (a word too long for a line is cut with :func:`fit`); ``[""]`` for no words."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if font.getlength(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = fit(word, font, width)
    if line:
        lines.append(line)
    return lines or [""]


# --- shapes and pictures -------------------------------------------------------------------


def rotated(points: Sequence[Point], angle: float, cx: float, cy: float,
            r: float) -> list[Point]:
    """``points`` (in units of ``r`` around the origin) turned ``angle`` radians
    clockwise and placed around (``cx``, ``cy``).

    >>> rotated([(1, 0)], 0, 10, 20, 5)
    [(15.0, 20.0)]
    """
    cos, sin = math.cos(angle), math.sin(angle)
    return [(cx + r * (x * cos - y * sin), cy + r * (x * sin + y * cos)) for x, y in points]


def supersampled(size: int, draw: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """A transparent RGBA square ``size`` pixels wide with smooth edges: ``draw`` is
    given a square :data:`SS` times bigger (its draw and its side) to paint, which is
    then scaled down."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw(ImageDraw.Draw(big), size * SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def png(image: Image.Image, max_side: int | None = MAX_SIDE) -> bytes:
    """``image`` as PNG bytes, first scaled down in place to fit ``max_side`` on both
    sides (``None``: left as it is)."""
    if max_side is not None and max(image.size) > max_side:
        image.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
