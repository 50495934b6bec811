"""Eclipse's pictures: single cards, a player's hand and the whole table, as PNGs.

A card shows the four sections of the physical card: the top symbol (a sun, a
disc with rays, or a moon, a crescent) in the top section, the bottom symbol
(♂, a ring with an arrow, or ♀, a ring with a cross) in the bottom one, the
number on the left and the emblem on the right (shield, bolt, cog, butterfly,
star). Sun cards are gold and moon cards blue-silver, so the tops read at a
glance. A follower is a grey hatched card with a big F; a card back is violet
with a gold eclipse.

The symbols on cards and in labels are drawn as shapes (supersampled, for smooth
edges); text is drawn by :func:`bot.pictures.common.draw_text`, which keeps ♂ and ♀ (the
font has them) and draws the judging's arrows as arrows. Every word is in the language
spoken (the ``eclipse`` catalog) and fitted to its room, so that longer words never run
out of their place.

The emblem takes half the card's width (:func:`emblem_box`) and the number a third
(:func:`number_box`), so both read on a phone: Discord shows a picture there about
:data:`~bot.pictures.common.PHONE_WIDTH` pixels wide, and the table is :data:`WIDTH`
wide so that an emblem on it is at least :data:`MIN_EMBLEM_ON_PHONE` pixels there.

The table is a stack of bands on a night-blue background: a header (hand count,
deck size, who is awaited); one band per seat in seat order with, at its top left,
the name, an ATTACKER or DEFENDER tag, the hand as a few card backs and a count, and
the regular subsets beside and under it as numbered groups of cards side by side
(a card's number is at its left and its emblem at its right, so cards never
overlap), each labelled with its number, its size out of 6 and, where it fits, its
kind drawn as symbols (a seat that is out, or has nothing in front, takes one line;
one that is out is dimmed and tagged OUT); the safe set with six slots and its
count; the reveal (each card under the name of the seat that played it, in the
colour of its role, the numbers presented, the winner and the judging step by
step); and the result once the game is over.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.i18n import say, tr, trn
from bot.pictures.common import (
    MAX_SIDE,
    SS,
    Colour,
    Font,
    Point,
    ascii_text,
    draw_text,
    fit,
    font,
    game_over,
    length,
    png,
    rotated,
    seat_name,
    supersampled,
    wrap,
)
from rules.core import Outcome
from rules.eclipse.cards import Card
from rules.eclipse.terms import key_word
from rules.eclipse.view import EclipseView, Reveal, SubsetView

CARD_W, CARD_H = 64, 92
"""A card's size in pixels at scale 1."""
COMPLETE = 6
"""Cards that complete a subset or the safe set (the spec's requisite number)."""
WIDTH = 640
"""Width of the table picture: narrow, so that a phone (which shows it
:data:`~bot.pictures.common.PHONE_WIDTH` wide) scales it down little."""
MIN_EMBLEM_ON_PHONE = 12
"""Least size, in pixels on a phone, of an emblem on the table: the emblem on a card
the table shows is at least this × WIDTH / PHONE_WIDTH pixels in the picture."""
MIN_TEXT_ON_PHONE = 10
"""Least font size, in pixels on a phone, of the names on the table."""
PAD = 10
"""Margin around the picture and its bands."""
BAND_W = WIDTH - 2 * PAD
INSET = 10
"""Margin inside a band."""
CONTENT_W = BAND_W - 2 * INSET
BAND_GAP = 8
HAND_SCALE = 1.25
HAND_PER_ROW = 10
SUBSET_SCALES = (0.75, 0.7, 0.56)
"""Card scales for the subsets and the safe set, tried in turn until the table fits
:data:`MAX_SIDE`; the first two keep the emblem readable on a phone."""
REVEAL_SCALE = 1.0
REVEAL_COLUMN = 150
"""Width of each side of the reveal: the seat's name over the card it played."""
NAME_BOX, NAME_BOX_H = 184, 80
"""Size of the box at a seat band's top left for its name, tags, hand and cards in
front; its subsets start to the right of it."""
SAFE_LEFT = INSET + NAME_BOX + 16
"""Where the safe set's cards start in its band (in line with the seats' subsets)."""
BACK_SCALE = 0.24
CARD_GAP = 3
"""Space between the cards of a group."""
GROUP_GAP = 16
ROW_GAP = 8
LABEL_H = 22
"""Height of a subset's label line over its cards."""
STEP_H = 20
"""Line height of the judging steps."""
ICON, ICON_STEP = 17, 19
"""Size of the symbols in labels and tags, and their spacing."""
TITLE_FONT, HEAD_FONT, NAME_FONT, NUMBER_FONT = 24, 18, 17, 17
INFO_FONT, LABEL_FONT, TAG_FONT = 16, 15, 14
"""Font sizes: all at least 14 px, about 9 on a phone; names at 17, 10.6 there."""

BG = (22, 26, 40)
BAND = (36, 42, 64)
SAFE_BAND = (30, 52, 56)
REVEAL_BAND = (50, 40, 66)
INK = (236, 238, 244)
DIM = (146, 152, 172)
FAINT = (92, 98, 122)
GOLD = (246, 192, 52)
ATTACK = (200, 58, 48)
DEFEND = (52, 118, 206)
ATTACK_INK, DEFEND_INK = (255, 132, 118), (128, 178, 255)
"""The roles' colours lightened, for names on the dark reveal band."""
OUT_TAG = (96, 96, 104)
OUTLINE = (40, 34, 50)

FACE: dict[str | None, tuple[Colour, Colour, Colour, Colour]] = {
    # face, rim, section lines, ink (the number)
    "sun": ((252, 222, 140), (190, 122, 14), (228, 178, 86), (92, 52, 0)),
    "moon": ((196, 212, 238), (62, 88, 152), (150, 172, 212), (24, 38, 86)),
    None: ((210, 207, 198), (112, 108, 100), (192, 188, 178), (70, 66, 60)),
}
"""Card colours by top; ``None`` is a follower."""
BACK_FACE, BACK_RIM, BACK_LINE = (54, 38, 88), (206, 172, 88), (72, 54, 110)

SYMBOL: dict[str, tuple[Colour, Colour]] = {
    "sun": ((242, 150, 18), (150, 78, 0)),
    "moon": ((248, 250, 255), (58, 78, 140)),
    "shield": ((96, 132, 194), OUTLINE),
    "bolt": ((255, 206, 40), OUTLINE),
    "cog": ((150, 152, 164), OUTLINE),
    "butterfly": ((198, 86, 208), OUTLINE),
    "star": ((255, 168, 28), OUTLINE),
    "sword": ((224, 228, 238), OUTLINE),
}
"""Fill and outline of each filled shape, the same on cards and on the table."""
SEX_ON_CARD = {"male": (30, 58, 140), "female": (168, 28, 78)}
SEX_ON_TABLE = {"male": (130, 176, 255), "female": (255, 142, 186)}

# --- shapes --------------------------------------------------------------------------


def _ellipse_points(cx: float, cy: float, rx: float, ry: float, angle: float,
                    n: int = 28) -> list[Point]:
    points = [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]
    cos, sin = math.cos(angle), math.sin(angle)
    return [(cx + rx * x * cos - ry * y * sin, cy + rx * x * sin + ry * y * cos)
            for x, y in points]


def _crescent(c: float, r: float, n: int = 48) -> list[Point]:
    """A crescent: the disc of radius ``r`` around (c, c) less a disc offset up-right."""
    ox, oy, cut = c + 0.42 * r, c - 0.30 * r, 0.84 * r
    away = math.atan2(oy - c, ox - c) + math.pi
    steps = [math.pi * (2 * k / (n - 1) - 1) for k in range(n)]
    outer = [(c + r * math.cos(away + t), c + r * math.sin(away + t)) for t in steps]
    outer = [p for p in outer if math.dist(p, (ox, oy)) >= cut]
    inner = [(ox + cut * math.cos(away + t), oy + cut * math.sin(away + t))
             for t in reversed(steps)]
    inner = [p for p in inner if math.dist(p, (c, c)) <= r]
    return outer + inner


def _star(c: float, r: float) -> list[Point]:
    return [(c + (r if k % 2 == 0 else 0.42 * r) * math.cos(math.pi * (k / 5 - 0.5)),
             c + (r if k % 2 == 0 else 0.42 * r) * math.sin(math.pi * (k / 5 - 0.5)))
            for k in range(10)]


def _cog(c: float, r: float, teeth: int = 8) -> list[Point]:
    step = 2 * math.pi / teeth
    points: list[Point] = []
    for k in range(teeth):
        a = k * step
        for radius, da in ((0.72, -0.32), (1.0, -0.18), (1.0, 0.18), (0.72, 0.32)):
            points.append((c + radius * r * math.cos(a + da * step),
                           c + radius * r * math.sin(a + da * step)))
    return points


def _draw_shape(draw: ImageDraw.ImageDraw, name: str, size: int, fill: Colour,
                outline: Colour) -> None:
    """Draw symbol ``name`` centred in a transparent ``size``-pixel square."""
    c, r = size / 2, size * 0.46
    w = max(1, round(size * 0.05))
    clear = (0, 0, 0, 0)
    if name == "sun":
        for k in range(8):
            a = k * math.pi / 4
            draw.polygon([(c + r * math.cos(a), c + r * math.sin(a)),
                          (c + 0.62 * r * math.cos(a - 0.2), c + 0.62 * r * math.sin(a - 0.2)),
                          (c + 0.62 * r * math.cos(a + 0.2), c + 0.62 * r * math.sin(a + 0.2))],
                         fill=fill, outline=outline, width=w)
        disc = 0.52 * r
        draw.ellipse((c - disc, c - disc, c + disc, c + disc), fill=fill, outline=outline,
                     width=w)
    elif name == "moon":
        draw.polygon(_crescent(c, r * 0.96), fill=fill, outline=outline, width=w)
    elif name in ("male", "female"):
        stroke = max(1, round(r * 0.17))
        ring = 0.5 * r
        if name == "male":
            x, y = c - 0.2 * r, c + 0.2 * r
            d = math.sqrt(0.5)
            tip = (c + 0.92 * r, c - 0.92 * r)
            back = (tip[0] - 0.44 * r * d, tip[1] + 0.44 * r * d)
            draw.line([(x + ring * d, y - ring * d), back], fill=fill, width=stroke)
            side = 0.28 * r * d
            draw.polygon([tip, (back[0] - side, back[1] - side), (back[0] + side, back[1] + side)],
                         fill=fill)
        else:
            x, y = c, c - 0.3 * r
            draw.line([(c, y + ring), (c, c + r)], fill=fill, width=stroke)
            draw.line([(c - 0.32 * r, c + 0.62 * r), (c + 0.32 * r, c + 0.62 * r)], fill=fill,
                      width=stroke)
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=fill, width=stroke)
    elif name == "shield":
        outline_pts = [(-0.8, -0.84), (0, -1.0), (0.8, -0.84), (0.8, -0.06), (0.56, 0.5),
                       (0, 0.98), (-0.56, 0.5), (-0.8, -0.06)]
        draw.polygon(rotated(outline_pts, 0, c, c, r), fill=fill, outline=outline, width=w)
        draw.line([(c, c - 0.86 * r), (c, c + 0.84 * r)], fill=outline, width=w)
        draw.line([(c - 0.72 * r, c - 0.2 * r), (c + 0.72 * r, c - 0.2 * r)], fill=outline,
                  width=w)
    elif name == "bolt":
        bolt = [(0.34, -1.0), (-0.52, 0.14), (-0.04, 0.14), (-0.34, 1.0), (0.52, -0.18),
                (0.04, -0.18)]
        draw.polygon(rotated(bolt, 0, c, c, r), fill=fill, outline=outline, width=w)
    elif name == "cog":
        draw.polygon(_cog(c, r), fill=fill, outline=outline, width=w)
        hole = 0.3 * r
        draw.ellipse((c - hole, c - hole, c + hole, c + hole), fill=clear, outline=outline,
                     width=w)
    elif name == "butterfly":
        for side in (-1, 1):
            draw.polygon(_ellipse_points(c + side * 0.46 * r, c - 0.3 * r, 0.52 * r, 0.36 * r,
                                         side * -0.6), fill=fill, outline=outline, width=w)
            draw.polygon(_ellipse_points(c + side * 0.34 * r, c + 0.42 * r, 0.36 * r, 0.26 * r,
                                         side * 0.55), fill=fill, outline=outline, width=w)
            draw.line([(c, c - 0.5 * r), (c + side * 0.3 * r, c - 0.95 * r)], fill=outline,
                      width=w)
        draw.ellipse((c - 0.09 * r, c - 0.6 * r, c + 0.09 * r, c + 0.75 * r), fill=outline)
    elif name == "star":
        draw.polygon(_star(c, r), fill=fill, outline=outline, width=w)
    elif name == "sword":
        blade = [(-0.12, 0.32), (-0.12, -0.72), (0, -1.0), (0.12, -0.72), (0.12, 0.32)]
        guard = [(-0.44, 0.32), (0.44, 0.32), (0.44, 0.48), (-0.44, 0.48)]
        grip = [(-0.08, 0.48), (0.08, 0.48), (0.08, 0.86), (-0.08, 0.86)]
        turn = math.pi / 4
        for part in (blade, guard, grip):
            draw.polygon(rotated(part, turn, c, c, r), fill=fill, outline=outline, width=w)
    else:
        raise ValueError(f"no shape called {name!r}")


@lru_cache(maxsize=256)
def _icon(name: str, size: int, fill: Colour | None = None,
          outline: Colour | None = None) -> Image.Image:
    """Symbol ``name`` as a smooth RGBA picture ``size`` pixels square (do not modify it)."""
    default_fill, default_outline = SYMBOL.get(name, (INK, OUTLINE))
    return supersampled(size, lambda draw, big: _draw_shape(
        draw, name, big, fill or default_fill, outline or default_outline))


def _paste_icon(image: Image.Image, name: str, size: int, cx: float, cy: float,
                fill: Colour | None = None) -> None:
    icon = _icon(name, size, fill)
    at = (round(cx - size / 2), round(cy - size / 2))
    if image.mode == "RGBA":  # a card: keep its face opaque under the icon's soft edges
        image.alpha_composite(icon, at)
    else:
        image.paste(icon, at, icon)


# --- cards ---------------------------------------------------------------------------


def _card_size(scale: float) -> tuple[int, int]:
    return max(12, round(CARD_W * scale)), max(17, round(CARD_H * scale))


def _base(w: int, h: int, face: Colour, rim: Colour,
          pattern: Callable[[ImageDraw.ImageDraw, int, int], None] | None = None
          ) -> Image.Image:
    """A blank card ``w``×``h`` with rounded corners on a transparent ground, drawn
    supersampled; ``pattern`` draws on the face (at the big size) inside the rim."""
    bw, bh = w * SS, h * SS
    radius = max(2, round(bw * 0.12))
    rim_w = max(SS, round(bw * 0.04))
    mask = Image.new("L", (bw, bh), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, bw - 1, bh - 1), radius=radius, fill=255)
    face_img = Image.new("RGBA", (bw, bh), face)
    if pattern is not None:
        pattern(ImageDraw.Draw(face_img), bw, bh)
    ImageDraw.Draw(face_img).rounded_rectangle((0, 0, bw - 1, bh - 1), radius=radius,
                                               outline=rim, width=rim_w)
    card = Image.new("RGBA", (bw, bh), (0, 0, 0, 0))
    card.paste(face_img, (0, 0), mask)
    return card.resize((w, h), Image.Resampling.LANCZOS)


Box = tuple[int, int, int, int]
"""A rectangle as (left, top, right, bottom), right and bottom excluded."""
UPPER, LOWER, DIVIDER = 0.30, 0.70, 0.44
"""Where a card's sections meet: the top section ends and the bottom one starts at these
fractions of its height; the middle one is split at this fraction of its width."""
EMBLEM = 0.5
"""The emblem's square, as a fraction of the card's width (its glyph fills about 0.9
of it): as big as the right half of the middle section allows."""


def emblem_box(w: int, h: int) -> Box:
    """Where a ``w``×``h`` card draws its emblem: a square in the right half of the
    middle section.

    >>> emblem_box(64, 92)
    (29, 30, 61, 62)
    """
    size = round(w * EMBLEM)
    x, y = round(w * 0.71 - size / 2), round(h * 0.5 - size / 2)
    return x, y, x + size, y + size


def _number_font(w: int) -> Font:
    return font(max(7, round(w * 0.33)))


def number_box(w: int, h: int) -> Box:
    """Where a ``w``×``h`` card draws its number (room for two digits), in the left
    part of the middle section.

    >>> number_box(64, 92)
    (3, 38, 27, 55)
    """
    left, top, right, bottom = _number_font(w).getbbox("15", anchor="mm")
    cx, cy = round(w * 0.23), round(h * 0.5)
    return cx + left, cy + top, cx + right, cy + bottom


@lru_cache(maxsize=512)
def _symbol_card(top: str, bottom: str, emblem: str, number: int, w: int, h: int
                 ) -> Image.Image:
    face, rim, line, ink = FACE[top]

    def sections(draw: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        width = max(1, bw // 60)
        upper, lower = round(bh * UPPER), round(bh * LOWER)
        inset = round(bw * 0.1)
        draw.line((inset, upper, bw - inset, upper), fill=line, width=width)
        draw.line((inset, lower, bw - inset, lower), fill=line, width=width)
        draw.line((bw * DIVIDER, upper, bw * DIVIDER, lower), fill=line, width=width)

    card = _base(w, h, face, rim, sections)
    _paste_icon(card, top, round(w * 0.42), w / 2, h * UPPER / 2)
    _paste_icon(card, bottom, round(w * 0.38), w / 2, h * (1 + LOWER) / 2,
                SEX_ON_CARD[bottom])
    x0, y0, x1, _ = emblem_box(w, h)
    _paste_icon(card, emblem, x1 - x0, (x0 + x1) / 2, y0 + (x1 - x0) / 2)
    draw_text(ImageDraw.Draw(card), (round(w * 0.23), round(h * 0.5)), str(number),
         _number_font(w), ink, anchor="mm")
    return card


@lru_cache(maxsize=32)
def _follower_card(w: int, h: int, word: str) -> Image.Image:
    """A follower ``w``×``h``; ``word`` is "follower" in the language spoken (part of
    the cache's key, so each language has its own picture)."""
    face, rim, line, ink = FACE[None]

    def hatch(draw: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        gap = max(4, bw // 8)
        for k in range(-bh, bw, gap):
            draw.line((k, 0, k + bh, bh), fill=line, width=max(1, bw // 40))

    card = _base(w, h, face, rim, hatch)
    draw = ImageDraw.Draw(card)
    r = w * 0.26
    cx, cy = w / 2, h * 0.44
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=face, outline=rim,
                 width=max(1, round(w / 32)))
    draw_text(draw, (cx, cy), "F", font(max(7, round(w * 0.3))), ink, anchor="mm")
    if w >= 40:
        small = font(max(7, round(w * 0.15)))
        draw_text(draw, (cx, h * 0.82), fit(word, small, w * 0.86), small, ink, anchor="mm")
    return card


@lru_cache(maxsize=32)
def _back_card(w: int, h: int) -> Image.Image:
    def lattice(draw: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        gap = max(6, bw // 5)
        width = max(1, bw // 48)
        for k in range(-bh, bw + bh, gap):
            draw.line((k, 0, k + bh, bh), fill=BACK_LINE, width=width)
            draw.line((k, 0, k - bh, bh), fill=BACK_LINE, width=width)
        inset = round(bw * 0.1)
        draw.rounded_rectangle((inset, inset, bw - inset, bh - inset), radius=inset,
                               outline=BACK_RIM, width=width)
        cx, cy, r = bw / 2, bh / 2, bw * 0.24
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK_RIM)
        dark = r * 0.86
        ox, oy = cx + r * 0.1, cy - r * 0.06
        draw.ellipse((ox - dark, oy - dark, ox + dark, oy + dark), fill=BACK_FACE)

    return _base(w, h, BACK_FACE, BACK_RIM, lattice)


def _card_image(card: Card | None, scale: float) -> Image.Image:
    """The cached RGBA picture of ``card`` (``None``: a card back); do not modify it."""
    w, h = _card_size(scale)
    if card is None:
        return _back_card(w, h)
    if card.top is None or card.bottom is None or card.emblem is None:
        return _follower_card(w, h, tr("eclipse.picture.follower"))
    return _symbol_card(card.top, card.bottom, card.emblem, card.number, w, h)


def render_card(card: Card, *, scale: float = 1.0) -> Image.Image:
    """One card face up, about 64×92 pixels at ``scale`` 1, as an RGBA image with
    transparent corners: top symbol above, ♂/♀ below, number left, emblem right;
    gold for sun, blue-silver for moon, grey hatched with an F for a follower."""
    return _card_image(card, scale).copy()


def render_back(*, scale: float = 1.0) -> Image.Image:
    """A face-down card (violet, with a gold eclipse), the size of :func:`render_card`'s."""
    return _card_image(None, scale).copy()


@dataclass(frozen=True, slots=True)
class Placed:
    """A card drawn on a picture, and where: what tests and layouts check."""

    card: Card | None
    """The card, ``None`` for a card back."""
    box: Box


def _paste_card(image: Image.Image, card: Card | None, scale: float, x: float, y: float,
                placed: list[Placed] | None = None) -> None:
    picture = _card_image(card, scale)
    at = (round(x), round(y))
    image.paste(picture, at, picture)
    if placed is not None:
        placed.append(Placed(card, (*at, at[0] + picture.width, at[1] + picture.height)))


def _moved(placed: Sequence[Placed], dx: int, dy: int) -> list[Placed]:
    return [Placed(p.card, (p.box[0] + dx, p.box[1] + dy, p.box[2] + dx, p.box[3] + dy))
            for p in placed]


# --- a hand --------------------------------------------------------------------------


def draw_hand(cards: Sequence[Card]) -> tuple[Image.Image, list[Placed]]:
    """The picture :func:`render_hand` sends, and where each card is on it."""
    title_font, code_font = font(18), font(18)
    if not cards:
        image = Image.new("RGB", (300, 64), BG)
        draw_text(ImageDraw.Draw(image), (150, 32),
                  fit(tr("eclipse.picture.hand_empty"), title_font, 300 - 2 * PAD), title_font,
                  DIM, anchor="mm")
        return image, []
    w, h = _card_size(HAND_SCALE)
    gap, code_h, title_h = 10, 26, 34
    per_row = min(len(cards), HAND_PER_ROW)
    rows = -(-len(cards) // per_row)
    width = max(280, 2 * PAD + per_row * (w + gap) - gap)
    height = title_h + rows * (h + code_h + 6) + PAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    title = fit(trn("eclipse.picture.hand", len(cards)), title_font, width - 2 * PAD)
    draw_text(draw, (PAD, title_h // 2 + 2), title, title_font, INK, anchor="lm")
    placed: list[Placed] = []
    for k, card in enumerate(cards):
        row, col = divmod(k, per_row)
        x = PAD + col * (w + gap)
        y = title_h + row * (h + code_h + 6)
        _paste_card(image, card, HAND_SCALE, x, y, placed)
        draw_text(draw, (x + w / 2, y + h + code_h // 2 + 1), ascii_text(card.code), code_font,
             INK, anchor="mm")
    return image, placed


def render_hand(cards: Sequence[Card]) -> bytes:
    """PNG of a hand: the cards in rows, each with its code (``S13f``, ``F``) under it,
    the codes the select menu offers. An empty hand is a small picture saying so."""
    return png(draw_hand(cards)[0])


# --- the table -----------------------------------------------------------------------


def _band(height: int, fill: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (BAND_W, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, image.width - 1, height - 1), radius=10, fill=fill)
    return image, draw


def _tag_width(words: str, icon: str | None = None) -> float:
    return 16 + (20 if icon else 0) + length(words, font(TAG_FONT))


def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, cy: float, words: str,
         fill: Colour, icon: str | None = None, ink: Colour = INK) -> float:
    """A pill with ``words`` (and a symbol) centred on height ``cy`` from ``x``, 24 px
    high; returns its width."""
    width = _tag_width(words, icon)
    draw.rounded_rectangle((x, cy - 12, x + width, cy + 12), radius=12, fill=fill)
    if icon:
        _paste_icon(image, icon, 17, x + 8 + 8, cy)
    draw_text(draw, (x + 8 + (20 if icon else 0), cy), words, font(TAG_FONT), ink, anchor="lm")
    return width


def _kind_width(subset: SubsetView) -> float:
    icons = (2 if subset.top else 1) * ICON_STEP
    key = ICON_STEP if subset.bottom == "male" else \
        4 + length(say(key_word(subset.key)), font(LABEL_FONT))
    return icons + key


def _draw_kind(image: Image.Image, draw: ImageDraw.ImageDraw, subset: SubsetView,
               x: float, cy: float) -> float:
    """The subset's kind as symbols (top, ♂/♀, emblem or ``odd``/``even``); returns the
    x after it."""
    names = [subset.top] if subset.top else []
    names.append(subset.bottom)
    for name in names:
        _paste_icon(image, name, ICON, x + ICON / 2, cy, SEX_ON_TABLE.get(name))
        x += ICON_STEP
    if subset.bottom == "male":
        _paste_icon(image, subset.key, ICON, x + ICON / 2, cy)
        return x + ICON_STEP
    key = say(key_word(subset.key))
    draw_text(draw, (x + 2, cy), key, font(LABEL_FONT), INK, anchor="lm")
    return x + 4 + length(key, font(LABEL_FONT))


def fan(count: int, w: int) -> list[int]:
    """Where each of ``count`` cards ``w`` wide lies in a group, from its left: side by
    side, :data:`CARD_GAP` apart. They never overlap, because a card's number is at its
    left edge and its emblem at its right (see :func:`emblem_box`, :func:`number_box`),
    so a card laid over another's side would hide one of them.

    >>> fan(3, 48)
    [0, 51, 102]
    """
    return [k * (w + CARD_GAP) for k in range(count)]


def _label(subset: SubsetView) -> tuple[str, str]:
    return f"{subset.number}", f"{subset.size}/{COMPLETE}"


def _label_width(subset: SubsetView, kind: bool) -> float:
    number, size = _label(subset)
    width = length(number, font(NUMBER_FONT)) + 6 + length(size, font(LABEL_FONT))
    return width + (8 + _kind_width(subset) if kind else 0)


def _group_width(subset: SubsetView, w: int) -> float:
    """A group is as wide as its cards, or as its number and size if they are wider
    (its kind is left out of the label when it does not fit over the cards: every card
    shows it)."""
    cards = fan(subset.size, w)[-1] + w if subset.size else w
    return max(cards, _label_width(subset, kind=False))


def _draw_group(image: Image.Image, draw: ImageDraw.ImageDraw, subset: SubsetView,
                x: float, y: float, scale: float, placed: list[Placed]) -> None:
    """Subset ``subset`` at (x, y): its label (number, size, and kind where it fits)
    over its cards."""
    w, _ = _card_size(scale)
    number, size = _label(subset)
    cy = y + LABEL_H / 2
    draw_text(draw, (x, cy), number, font(NUMBER_FONT), GOLD, anchor="lm")
    after = x + length(number, font(NUMBER_FONT)) + 6
    draw_text(draw, (after, cy), size, font(LABEL_FONT),
         GOLD if subset.size >= COMPLETE else DIM, anchor="lm")
    if _label_width(subset, kind=True) <= _group_width(subset, w):
        _draw_kind(image, draw, subset, after + length(size, font(LABEL_FONT)) + 8, cy)
    for card, dx in zip(subset.cards, fan(subset.size, w), strict=True):
        _paste_card(image, card, scale, x + dx, y + LABEL_H, placed)


def _seat_tags(view: EclipseView, seat: int) -> list[tuple[str, Colour, str | None, Colour]]:
    """A seat's tags: words, fill, symbol and ink."""
    if view.out[seat]:
        return [(tr("eclipse.picture.out"), OUT_TAG, None, INK)]
    tags: list[tuple[str, Colour, str | None, Colour]] = []
    if view.outcome is not None:
        if seat in view.outcome.winners:
            tags.append((tr("eclipse.picture.winner"), GOLD, None, BG))
        return tags
    if seat == view.attacker:
        tags.append((tr("eclipse.picture.attacker"), ATTACK, "sword", INK))
    if seat == view.defender:
        tags.append((tr("eclipse.picture.defender"), DEFEND, "shield", INK))
    if seat in view.chosen:
        tags.append((tr("eclipse.picture.ready"), (46, 110, 70), None, INK))
    elif seat in view.waiting:
        tags.append((tr("eclipse.picture.to_act"), (120, 96, 30), None, INK))
    return tags


def _shrunk(text: str, size: int, room: float, least: int = TAG_FONT) -> tuple[str, Font]:
    """``text`` in the biggest font from ``size`` down to ``least`` in which it fits
    ``room`` pixels, else cut short in the smallest; and that font."""
    for points in range(size, least - 1, -1):
        if length(text, font(points)) <= room:
            return text, font(points)
    return fit(text, font(least), room), font(least)


def _fitted_tags(tags: list[tuple[str, Colour, str | None, Colour]], room: float
                 ) -> list[tuple[str, Colour, str | None, Colour]]:
    """``tags`` with their words cut short, the longest first, until all fit ``room``
    pixels (a language with longer words)."""
    tags = list(tags)
    tag_font = font(TAG_FONT)
    while tags and sum(_tag_width(words, icon) + 6 for words, _, icon, _ in tags) > room:
        k = max(range(len(tags)), key=lambda i: length(tags[i][0], tag_font))
        words, fill, icon, ink = tags[k]
        shorter = fit(words, tag_font, length(words, tag_font) - 8)
        if shorter == words or not shorter.strip("…"):
            break  # nothing left to cut: leave it
        tags[k] = (shorter, fill, icon, ink)
    return tags


def _name_box(view: EclipseView, seat: int, names: Sequence[str], image: Image.Image,
              draw: ImageDraw.ImageDraw, one_line: bool) -> None:
    """A seat's name, tags and (unless it is out) its hand size and cards in front: in
    :data:`NAME_BOX` pixels at the band's top left, or ``one_line`` across the band
    (for a seat with nothing in front)."""
    you = tr("eclipse.picture.you") if view.seat == seat else ""
    name_font, info_font = font(NAME_FONT), font(INFO_FONT)
    tags = _seat_tags(view, seat)
    cy = INSET + 11
    hand = view.hand_sizes[seat]
    backs = 0 if view.out[seat] else min(hand, 3)
    bw, bh = _card_size(BACK_SCALE)
    info = "" if view.out[seat] else \
        tr("eclipse.picture.seat_info", hand=hand, front=view.cards_in_front(seat))
    backs_w = bw + (backs - 1) * 4 + 6 if backs else 0
    if one_line:
        # Name, tags and counts share the line: the name keeps at least a quarter.
        info, info_font = _shrunk(info, INFO_FONT, CONTENT_W * 0.4)
        tags = _fitted_tags(tags, CONTENT_W * 0.35)
    else:
        # The counts may reach into the gap before the subsets, in a smaller font if
        # they must (a language with longer words), and are cut short only then.
        info, info_font = _shrunk(info, INFO_FONT, NAME_BOX + GROUP_GAP - 4 - backs_w)
        tags = _fitted_tags(tags, NAME_BOX)
    info_w = backs_w + length(info, info_font)
    tags_w = sum(_tag_width(words, icon) + 6 for words, _, icon, _ in tags)
    room = NAME_BOX - length(you, name_font)
    if one_line:
        room = CONTENT_W - length(you, name_font) - tags_w - info_w - 18
    name = fit(seat_name(names, seat, tr("eclipse.picture.seat")), name_font, room)
    draw_text(draw, (INSET, cy), name, name_font, INK, anchor="lm")
    x = INSET + length(name, name_font)
    if you:
        draw_text(draw, (x, cy), you, name_font, DIM, anchor="lm")
        x += length(you, name_font)
    tag_y = cy
    if one_line:
        x += 12
    else:
        x, tag_y = INSET, cy + 28
    for words, fill, icon, ink in tags:
        x += _tag(image, draw, x, tag_y, words, fill, icon, ink) + 6
    x, info_y = (BAND_W - INSET - info_w, cy) if one_line else (INSET, cy + 56)
    for k in range(backs):
        _paste_card(image, None, BACK_SCALE, x + k * 4, info_y - bh / 2)
    x += bw + (backs - 1) * 4 + 6 if backs else 0
    draw_text(draw, (x, info_y), info, info_font, DIM, anchor="lm")


def _seat_band(view: EclipseView, seat: int, names: Sequence[str], scale: float
               ) -> tuple[Image.Image, list[Placed]]:
    """A seat's band: its name box at the top left, its subsets in rows to the right of
    it and then under it, as wide as the band."""
    if view.out[seat] or not view.subsets[seat]:
        image, draw = _band(2 * INSET + 24, BAND)
        if view.out[seat]:
            image = Image.blend(image, Image.new("RGB", image.size, BG), 0.5)
        _name_box(view, seat, names, image, ImageDraw.Draw(image), one_line=True)
        return image, []
    w, h = _card_size(scale)
    row_h = LABEL_H + h + ROW_GAP
    rows: list[tuple[SubsetView, float, float]] = []
    first = NAME_BOX + GROUP_GAP
    x, y = float(first), 0.0
    for subset in view.subsets[seat]:
        width = _group_width(subset, w)
        if x > (first if y == 0 else 0) and x + width > CONTENT_W:
            x, y = 0.0, y + row_h
        rows.append((subset, x, y))
        x += width + GROUP_GAP
    height = 2 * INSET + max(NAME_BOX_H, round(y) + row_h - ROW_GAP if rows else 0)
    image, draw = _band(height, BAND)
    placed: list[Placed] = []
    for subset, gx, gy in rows:
        _draw_group(image, draw, subset, INSET + gx, INSET + gy, scale, placed)
    _name_box(view, seat, names, image, draw, one_line=False)
    return image, placed


def _safe_band(view: EclipseView, scale: float) -> tuple[Image.Image, list[Placed]]:
    w, h = _card_size(scale)
    height = max(84, 2 * INSET + h)
    image, draw = _band(height, SAFE_BAND)
    safe = view.safe_set
    count = safe.size if safe else 0
    draw_text(draw, (INSET, INSET + 12),
              fit(tr("eclipse.picture.safe_set"), font(NAME_FONT), SAFE_LEFT - INSET - 8),
              font(NAME_FONT), INK, anchor="lm")
    cy = INSET + 40
    draw_text(draw, (INSET, cy), f"{count}/{COMPLETE}", font(NAME_FONT),
         GOLD if count >= COMPLETE else INK, anchor="lm")
    after = INSET + length(f"{count}/{COMPLETE}", font(NAME_FONT)) + 8
    if safe is not None:
        _draw_kind(image, draw, safe, after, cy)
    else:
        draw_text(draw, (after, cy), fit(tr("eclipse.picture.empty"), font(INFO_FONT),
                                         SAFE_LEFT - after - 8), font(INFO_FONT), DIM,
                  anchor="lm")
    cards = safe.cards if safe else ()
    placed: list[Placed] = []
    slots = max(COMPLETE, len(cards))
    step = min(w + 6, (BAND_W - INSET - SAFE_LEFT - w) / max(1, slots - 1))
    for k in range(slots):
        x, y = SAFE_LEFT + k * step, (height - h) / 2
        if k < len(cards):
            _paste_card(image, cards[k], scale, x, y, placed)
        else:
            draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=max(2, w // 8),
                                   outline=FAINT, width=1)
    return image, placed


def _reveal_head(view: EclipseView, reveal: Reveal, names: Sequence[str]) -> str:
    if reveal.winner is not None:
        name = seat_name(names, reveal.winner, tr("eclipse.picture.seat"))
        if reveal.winner == reveal.attacker:
            return tr("eclipse.picture.attacker_wins", name=name)
        return tr("eclipse.picture.defender_wins", name=name)
    if view.phase == "numbers":
        return tr("eclipse.picture.waiting_numbers")
    return tr("eclipse.picture.not_settled")


def _reveal_band(view: EclipseView, reveal: Reveal, names: Sequence[str]
                 ) -> tuple[Image.Image, list[Placed]]:
    """The last reveal: a line saying who won, each side's card under the seat's name
    (in the colour of its role, with its sword or shield), what it showed and
    presented, and the judging step by step."""
    w, h = _card_size(REVEAL_SCALE)
    head_font, line_font, name_font = font(HEAD_FONT), font(INFO_FONT), font(NAME_FONT)
    text_x = INSET + 2 * REVEAL_COLUMN + 16
    text_w = BAND_W - INSET - text_x
    head = fit(_reveal_head(view, reveal, names), head_font, CONTENT_W)
    steps = [(k == 0, line) for step in reveal.judging
             for k, line in enumerate(wrap(say(step), line_font, text_w - 14))]
    top = INSET + 32
    card_y = top + 26
    column_h = card_y + h + 30
    text_h = top + len(steps) * STEP_H + 4
    image, draw = _band(max(column_h, text_h) + INSET, REVEAL_BAND)
    placed: list[Placed] = []
    draw_text(draw, (INSET, INSET + 13), head, head_font,
         GOLD if reveal.winner is not None else INK, anchor="lm")
    sides = ((reveal.attacker, reveal.attacker_card, "sword", ATTACK_INK, 0),
             (reveal.defender, reveal.defender_card, "shield", DEFEND_INK, 1))
    for seat, card, icon, colour, k in sides:
        left = INSET + k * REVEAL_COLUMN
        cx = left + REVEAL_COLUMN / 2 - 8
        name = fit(seat_name(names, seat, tr("eclipse.picture.seat")), name_font,
                   REVEAL_COLUMN - 16 - ICON_STEP)
        name_w = ICON_STEP + length(name, name_font)
        _paste_icon(image, icon, ICON, cx - name_w / 2 + ICON / 2, top + 10, colour)
        draw_text(draw, (cx - name_w / 2 + ICON_STEP, top + 10), name, name_font, colour,
             anchor="lm")
        x = cx - w / 2
        if card is not None:
            _paste_card(image, card, REVEAL_SCALE, x, card_y, placed)
        else:
            draw.rounded_rectangle((x, card_y, x + w - 1, card_y + h - 1), radius=w // 8,
                                   outline=FAINT, width=2)
            draw_text(draw, (cx, card_y + h / 2), fit(tr("eclipse.picture.no_card"),
                                                      font(LABEL_FONT), w + 24),
                      font(LABEL_FONT), DIM, anchor="mm")
        detail = [ascii_text(card.code)] if card is not None else []
        if reveal.numbers is not None:
            detail.append(tr("eclipse.picture.presents", number=reveal.numbers[k]))
        said, said_font = _shrunk(" · ".join(detail), INFO_FONT, REVEAL_COLUMN - 12)
        draw_text(draw, (cx, card_y + h + 15), said, said_font, GOLD, anchor="mm")
    versus = font(NAME_FONT)
    draw_text(draw, (INSET + REVEAL_COLUMN - 8, card_y + h / 2),
              fit(tr("eclipse.picture.versus"), versus, REVEAL_COLUMN / 2 - w / 2 - 8), versus,
              DIM, anchor="mm")
    for k, (first, line) in enumerate(steps):
        y = top + 10 + k * STEP_H
        if first:
            draw_text(draw, (text_x, y), "›", line_font, DIM, anchor="lm")
        draw_text(draw, (text_x + 14, y), line, line_font, INK, anchor="lm")
    return image, placed


def _outcome_band(view: EclipseView, names: Sequence[str]) -> Image.Image:
    outcome = view.outcome
    assert outcome is not None
    result_font = font(HEAD_FONT)
    seats = [seat_name(names, seat, tr("eclipse.picture.seat"))
             for seat in range(len(outcome.places))]
    # The reason said here, in the language spoken, its seats named (as text that names
    # no seat, so that a name is never read as a placeholder).
    reason = say(outcome.reason, names=seats).replace("{", "{{").replace("}", "}}")
    said = Outcome(outcome.places, outcome.scores, reason)
    head = game_over(said, [seats[seat] for seat in outcome.winners], seats)
    lines = wrap(head, result_font, CONTENT_W)
    if len(outcome.places) > 2:
        order = sorted(range(len(outcome.places)), key=lambda s: (outcome.places[s], s))
        places = " · ".join(f"{outcome.places[s]}. {seats[s]}" for s in order)
        lines += wrap(tr("eclipse.picture.places", places=places), result_font, CONTENT_W)
    image, draw = _band(2 * INSET + 26 * len(lines), REVEAL_BAND)
    for k, line in enumerate(lines):
        draw_text(draw, (INSET, INSET + 13 + 26 * k), line, result_font, GOLD, anchor="lm")
    return image


def _header(view: EclipseView, names: Sequence[str]) -> Image.Image:
    """The title, the hand count and deck size, and (below) who is awaited."""
    status = []
    if view.outcome is None and view.waiting:
        status.append(tr("eclipse.picture.waiting_for", names=", ".join(
            seat_name(names, s, tr("eclipse.picture.seat")) for s in view.waiting)))
    if view.counter_left:
        status.append(trn("eclipse.picture.to_move", view.counter_left))
    if view.moving is not None:
        status.append(tr("eclipse.picture.placing", card=ascii_text(view.moving.code)))
    image = Image.new("RGB", (BAND_W, 34 + (24 if status else 0)), BG)
    draw = ImageDraw.Draw(image)
    title_font = font(TITLE_FONT)
    draw_text(draw, (0, 17), "ECLIPSE", title_font, GOLD, anchor="lm")
    x = length("ECLIPSE", title_font) + 14
    if view.outcome is not None:
        count = trn("eclipse.picture.hands_played", view.hands_played)
    else:
        count = tr("eclipse.picture.hand_of", hand=min(view.hands_played + 1, view.hand_cap),
                   cap=view.hand_cap)
    info = fit(trn("eclipse.picture.header", view.deck_size, hands=count), font(INFO_FONT),
               BAND_W - x)
    draw_text(draw, (x, 18), info, font(INFO_FONT), INK, anchor="lm")
    if status:
        draw_text(draw, (0, 46), fit(" · ".join(status), font(INFO_FONT), BAND_W), font(INFO_FONT),
             DIM, anchor="lm")
    return image


def draw_table(view: EclipseView, names: Sequence[str]) -> tuple[Image.Image, list[Placed]]:
    """The picture :func:`render_table` sends, and where each card is on it.

    The subsets and the safe set take the first of :data:`SUBSET_SCALES` at which the
    picture fits :data:`MAX_SIDE`: in computer games of 2 to 6 seats, 98% of tables fit
    at the first and all but 0.15% (5 or 6 seats with some 60 cards in front) at the
    second; only those fall back to the smallest, where emblems are 9-10 px on a phone."""
    fixed: list[tuple[Image.Image, list[Placed]]] = [(_header(view, names), [])]
    if view.reveal is not None:
        fixed.append(_reveal_band(view, view.reveal, names))
    if view.outcome is not None:
        fixed.append((_outcome_band(view, names), []))
    for scale in SUBSET_SCALES:
        seats = [_seat_band(view, seat, names, scale) for seat in range(view.seats)]
        bands = [fixed[0], *seats, _safe_band(view, scale), *fixed[1:]]
        height = PAD + sum(b.height for b, _ in bands) + BAND_GAP * (len(bands) - 1) + PAD
        if height <= MAX_SIDE:
            break
    image = Image.new("RGB", (WIDTH, height), BG)
    placed: list[Placed] = []
    y = PAD
    for band, cards in bands:
        image.paste(band, (PAD, y))
        placed += _moved(cards, PAD, y)
        y += band.height + BAND_GAP
    return image, placed


def render_table(view: EclipseView, names: Sequence[str]) -> bytes:
    """PNG of the whole table of ``view``; ``names`` are the seats' display names.

    The header gives the hand count, the deck size and who is awaited; then one band
    per seat in seat order (name, ATTACKER/DEFENDER, OUT dimmed, hand size as card
    backs, the regular subsets as numbered groups), the safe set (x/6), the reveal
    when there is one (under each seat's name, the card it played) and the result
    once the game is over. :data:`WIDTH` pixels wide, so that on a phone, which
    shows it :data:`~bot.pictures.common.PHONE_WIDTH` wide, cards' emblems and the
    text stay big enough to read; never over :data:`MAX_SIDE` high.
    """
    return png(draw_table(view, names)[0])
