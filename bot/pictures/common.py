"""What the PNG renderers share: the font, text made safe for it and drawn, text fitted
to a width, names and results in words, shapes turned and supersampled, and the PNG
itself.

Every picture is drawn with DejaVu Sans Condensed (:func:`font`), shipped in
``fonts/`` as the subset a European language needs (Latin with its accents, punctuation,
arrows, the games' signs; made with fonttools' ``pyftsubset`` from Debian's
``fonts-dejavu-core``, whose licence is beside it): Portuguese is written with its
accents (issue 33), as wide as Pillow's built-in Aileron wrote English. It draws an empty
box for what it lacks (emoji, CJK), so every text a renderer draws goes through
:func:`draw_text`, which draws :func:`clean` text: what the font lacks becomes its plain
letter or a stand-in, else ``?``.
The arrows ``→`` and ``←`` (:data:`SHAPED`) are kept and drawn as shapes of their own,
sized and placed like a glyph of the font; :func:`length`, :func:`fit` and :func:`wrap`
measure them as drawn. :func:`ascii_text` first writes the games' other symbols (♂, ☀,
≤, ...) in words.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import current, speaking, tr, trn
from bot.matches.results import joined, reason_said
from rules.core import Outcome

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSansCondensed-subset.ttf"
"""The font every picture is drawn with (see the module's docstring)."""
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
PHONE_WIDTH = 400
"""How wide, in pixels, a phone shows a picture in an embed (the narrow end of the
400–550 Discord uses): a picture wider than this is shown scaled down to it."""

_STAND_INS = str.maketrans({
    "–": "-", "—": "-", "―": "-", "‒": "-", "−": "-", "‐": "-", "‑": "-", "×": "x",
    "•": "*", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i", "„": '"', "‚": "'", "′": "'", "″": '"',
})
"""Stand-ins for characters the font lacks that Unicode does not decompose."""
SHAPED = frozenset("→←")
"""Characters the font lacks that :func:`draw_text` draws as shapes: the arrows (an ASCII
``->`` looks like a stand-in, and the reading of a rule's steps hangs on them)."""
ARROW_EM = 1.0
"""An arrow's advance, in ems of the font it is drawn with."""
_SYMBOL_SIGNS = str.maketrans({"≤": "<=", "≥": ">=", "≠": "!="})


def _symbol_words() -> dict[int, str]:
    """The games' symbols the font lacks, as words in the locale spoken."""
    return _symbol_words_in(current())


@lru_cache(maxsize=8)
def _symbol_words_in(locale: str) -> dict[int, str]:
    with speaking(locale):
        return _symbol_table()


def _symbol_table() -> dict[int, str]:
    return str.maketrans({
        "♂": tr("pictures.symbol.male"), "♀": tr("pictures.symbol.female"),
        "☀": tr("pictures.symbol.sun"), "🌙": tr("pictures.symbol.moon"),
        "🛡": tr("pictures.symbol.shield"), "⚡": tr("pictures.symbol.bolt"),
        "⚙": tr("pictures.symbol.cog"), "🦋": tr("pictures.symbol.butterfly"),
        "⭐": tr("pictures.symbol.star"),
    })
_INVISIBLE = frozenset({"Cf", "Mn", "Me", "Sk"})
"""Unicode categories drawn as nothing: joiners, variation selectors, combining marks
and emoji skin tones (whose base character is replaced on its own)."""


# --- the font and text it can draw ---------------------------------------------------------


@lru_cache(maxsize=16)
def font(size: int) -> Font:
    """The pictures' font at ``size`` pixels (loaded once per size)."""
    return ImageFont.truetype(str(FONT_FILE), size)


@lru_cache(maxsize=4096)
def drawable(ch: str) -> bool:
    """Whether the font has a glyph for ``ch``: whether it draws something other than
    its "missing glyph" box, which it draws for a private-use character.

    >>> drawable("A"), drawable(" "), drawable("é"), drawable("ç"), drawable("🎲"), drawable("博")
    (True, True, True, True, False, False)
    """
    return ch.isspace() or _glyph(ch) != _glyph("\ue000")


@lru_cache(maxsize=4096)
def _glyph(ch: str) -> tuple[tuple[int, int, int, int] | None, bytes]:
    """The shape of ``ch`` in the font: its box and its pixels, as the font draws it."""
    mask = font(16).getmask(ch)
    return font(16).getbbox(ch), bytes(mask)  # a mask's bytes are its pixels


def _stand_in(ch: str) -> str:
    """What to draw for ``ch``, one character the font lacks: its letters without
    accents where Unicode decomposes it (``é`` → ``e``, ``ĳ`` → ``ij``), nothing for
    an invisible one, else ``?``."""
    if unicodedata.category(ch) in _INVISIBLE:
        return ""
    parts = [p for p in unicodedata.normalize("NFKD", ch)
             if unicodedata.category(p) not in _INVISIBLE]
    if parts and all(p.isascii() or drawable(p) for p in parts) and "".join(parts) != ch:
        return "".join(parts)
    return "?"


@lru_cache(maxsize=1024)
def clean(text: str) -> str:
    """``text`` as :func:`draw_text` can draw it, each character the font lacks replaced:
    dashes by ``-``, ``×`` by ``x``, accented letters by plain ones, joiners and
    variation selectors by nothing, any space by a plain one, anything else (emoji,
    CJK, control characters) by ``?``; the arrows of :data:`SHAPED` are kept.

    >>> clean("Bo — 3×4 🎲"), clean("José Ærø"), clean("👍🏽 ok ❤️"), clean("博 →")
    ('Bo - 3x4 ?', 'José AEro', '? ok ❤', '? →')
    """
    return "".join(_clean_char(ch) for ch in text.translate(_STAND_INS))


@lru_cache(maxsize=4096)
def _clean_char(ch: str) -> str:
    if ch.isspace():
        return " "  # a newline would start a second line over whatever is below
    if ch in SHAPED:
        return ch
    if ch.isascii():
        return ch if ch.isprintable() else "?"
    if drawable(ch) and unicodedata.category(ch) not in _INVISIBLE:
        return ch
    return _stand_in(ch)


def ascii_text(text: str) -> str:
    """``text`` ready for the built-in font: symbols in words (in the locale spoken),
    anything else it lacks replaced (see :func:`clean`).

    >>> ascii_text("defender ♂; 3 − 1 ≤ 2 → maneuver — ☀🛡️")
    'defender male; 3 - 1 <= 2 → maneuver - sunshield'
    """
    return clean(text.translate(_SYMBOL_SIGNS).translate(_symbol_words()))


def draw_text(draw: ImageDraw.ImageDraw, xy: Point, words: str, font: Font, fill: Colour,
              anchor: str = "la", **options: Any) -> None:
    """Draw ``words`` at ``xy``, :func:`clean`\\ ed first: the one way the renderers
    draw text, so that no character the font lacks comes out as an empty box, and an
    arrow comes out as an arrow. ``options`` go to Pillow (``stroke_width``, say)."""
    text = clean(words)
    if not SHAPED.intersection(text):
        draw.text(xy, text, fill=fill, font=font, anchor=anchor, **options)
        return
    across, down = anchor[0], anchor[1:] or "a"
    x = xy[0] - {"m": 0.5, "r": 1.0}.get(across, 0.0) * _measure(text, font)
    for run in _runs(text):
        if run in SHAPED:
            _arrow(draw, x, xy[1], down, run, font, fill)
        else:
            draw.text((x, xy[1]), run, fill=fill, font=font, anchor="l" + down, **options)
        x += _measure(run, font)


def length(words: str, font: Font) -> float:
    """How long ``words`` are in ``font``, in pixels, as :func:`draw_text` draws them."""
    return _measure(clean(words), font)


def _size(font: Font) -> int:
    return int(getattr(font, "size", 10))


def _measure(text: str, font: Font) -> float:
    """How long ``text`` (already clean) is as drawn: its runs of letters as the font
    sets them, each arrow :data:`ARROW_EM` wide."""
    if not SHAPED.intersection(text):
        return font.getlength(text)
    return sum(_arrow_width(font) if run in SHAPED else font.getlength(run)
               for run in _runs(text))


def _runs(text: str) -> list[str]:
    """``text`` cut into runs of letters and single arrows, in order."""
    runs: list[str] = []
    for ch in text:
        if ch in SHAPED or not runs or runs[-1] in SHAPED:
            runs.append(ch)
        else:
            runs[-1] += ch
    return runs


def _arrow_width(font: Font) -> int:
    return max(6, round(ARROW_EM * _size(font)))


def _arrow(draw: ImageDraw.ImageDraw, x: float, y: float, down: str, arrow: str, font: Font,
           fill: Colour) -> None:
    """An arrow (``→`` or ``←``) whose advance starts at ``x``, its shaft at the height of
    the font's hyphen when the text's anchor point is at ``y``."""
    middle, _ = _axis(font, down)
    size = _size(font)
    mask = _arrow_mask(_arrow_width(font), size, max(1.0, size / 10), arrow == "←")
    draw.bitmap((round(x), round(y + middle - mask.height / 2)), mask, fill=fill)


@lru_cache(maxsize=64)
def _axis(font: Font, down: str) -> tuple[float, float]:
    """Where the font's hyphen lies, from a text's anchor point with vertical anchor
    ``down``: its middle's offset and its thickness, in pixels (read from the glyph's
    mask, not drawn: a spy on ``ImageDraw.text`` sees only the text itself)."""
    size = _size(font)
    mask, (_, top) = font.getmask2("-", mode="L", anchor="l" + down)
    box = Image.frombytes("L", mask.size, bytes(mask)).getbbox() if mask.size[0] else None
    if box is None:  # pragma: no cover - every font draws a hyphen
        return -size / 3, max(1.0, size / 12)
    return top + (box[1] + box[3]) / 2, float(box[3] - box[1])


@lru_cache(maxsize=64)
def _arrow_mask(width: int, size: int, thickness: float, left: bool) -> Image.Image:
    """An arrow's coverage, ``width`` wide and an odd number of pixels high, pointing
    right (or left): a shaft ``thickness`` thick and a head, smooth-edged (drawn
    :data:`SS` times bigger, then scaled down)."""
    height = max(5, round(size * 0.44)) | 1
    big = Image.new("L", (width * SS, height * SS), 0)
    draw = ImageDraw.Draw(big)
    mid, half = height * SS / 2, thickness * SS / 2
    start, tip = 0.1 * width * SS, 0.92 * width * SS
    head = 0.36 * size * SS
    draw.rectangle((start, mid - half, tip - head * 0.5, mid + half - 1), fill=255)
    draw.polygon([(tip - head, 0), (tip, mid), (tip - head, height * SS)], fill=255)
    mask = big.resize((width, height), Image.Resampling.BOX)
    return mask.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if left else mask


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


def game_over(outcome: Outcome, winners: Sequence[str], names: Sequence[str] = ()) -> str:
    """The result in a line, in the locale spoken: a draw, who wins or who win together,
    and the reason in brackets; ``winners`` are the display names of ``outcome.winners``,
    ``names`` every seat's (the reason may name seats).

    >>> game_over(Outcome(places=(2, 1), scores=None, reason="more cards"), ["Bo"])
    'Game over: Bo wins (more cards)'
    >>> game_over(Outcome(places=(1, 1, 3), scores=None, reason=""), ["Ada", "Bo"])
    'Game over: Ada and Bo win'
    >>> game_over(Outcome.forfeited(2, 0), ["Bo"], ["Ada", "Bo"])
    'Game over: Bo wins (Ada forfeited)'
    """
    if outcome.is_draw:
        head = tr("pictures.game_over.draw")
    else:
        head = trn("pictures.game_over.wins", len(winners), who=joined(winners))
    if not outcome.reason:
        return head
    return tr("pictures.game_over.why", head=head,
              reason=ascii_text(reason_said(outcome.reason, names)))


# --- text fitted to a width ----------------------------------------------------------------


def fit(text: str, font: Font, width: float) -> str:
    """``text`` :func:`clean`\\ ed and cut short with an ellipsis so that it is at most
    ``width`` pixels long in ``font``.

    >>> fit("Ada — the first programmer", font(16), 80)
    'Ada - the…'
    """
    text = clean(text)
    if _measure(text, font) <= width:
        return text
    while text and _measure(text + "…", font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, font: Font, width: float) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` pixels long in ``font``
    (a word too long for a line is cut with :func:`fit`), :func:`clean`\\ ed;
    ``[""]`` for no words."""
    text = clean(text)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if _measure(candidate, font) <= width:
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
