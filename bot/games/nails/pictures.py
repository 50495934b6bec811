"""Hammer & Nails' pictures: the build stack seen from above, single tiles and a hand, as PNGs.

The stack is drawn on a grid of zone cells, the cells players type (``C4``);
coordinates run along all four edges. Each cell shows its visible (top-most)
zone as a square: a **nail** is a nail in its colour on a tint of that colour
(in the Space deck a **ship**, an arrowhead with a flame), a **hammer** is a
steel-headed hammer (in Space a **laser**, a ray gun with a zigzag beam) on
grey, and a **blank** is plain card. A mechanic on a visible zone is a small
badge in the cell's bottom-right corner: a circular arrow for Play Again, a
no-entry sign (a circle with a slash) for Ø, and letters for the rest — ``RM``
remove, ``LK`` look through the deck, ``+2`` draw two, ``OD`` an opponent
discards, ``D`` discard, and ``C`` in a colour for "next player must cover a
nail of that colour". The footer lists the badges on show with their words.

Each tile has its own tone: its visible cells are outlined in it (so two tiles
meeting show two lines) and its number is written small in the top-left corner
of its first visible cell in reading order. An octagonal tile is drawn whole, as
in a hand: an octagon around its plus of zones whose slanted sides cut the corner
squares of its 3×3 cells, laid bottom first so that each covers what it lies on;
its centre sits on its even point, drawn as a cow's face for a cow and as a plain
hub for a blank, with the tile's number; empty even points, where a centre may go,
are dots. The last placement is framed in gold (an octagon along its outline).
The header gives each player's colour, count showing, penalties and hand size,
the deck size, whose turn it is and any "must cover" obligation; the footer gives
the result once the game is over.

The built-in font has no emoji, so every symbol is drawn as shapes,
supersampled for smooth edges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import current, say, tr, translate, trn
from bot.pictures.common import (
    MAX_SIDE,
    SS,
    Colour,
    Font,
    Point,
    draw_text,
    fit,
    font,
    length,
    png,
    rotated,
    seat_name,
    short,
    supersampled,
    wrap,
)
from rules.cells import column_name, row_name
from rules.nails.stack import OFFSETS, ROTATIONS, BuildStack, Cell, Placement
from rules.nails.state import NailsView
from rules.nails.text import goal, reason_words
from rules.nails.tiles import MECHANICS, Shape, Tile, Zone
from rules.nails.words import a_piece, colour_name

CELL = 56
"""Side of a zone cell on the stack, shrunk on big stacks to keep the picture within
:data:`MAX_SIDE`."""
MIN_CELL = 8
MIN_WIDTH = 480
ZONE = 56
"""A square tile's zone side at scale 1 in :func:`render_tile` (the tile is 2×2 zones)."""
OCT_ZONE = 40
"""An octagonal tile's zone side at scale 1 (the octagon spans 3 zones)."""
PAD = 10
LINE_H = 22
LEGEND_H = 20
HAND_PER_ROW = 6

GOLD = (255, 196, 0)
"""The frame around the last placement (used for nothing else)."""
RESULT = (250, 212, 96)
INK = (238, 236, 230)
DIM = (166, 160, 148)
CARD = (246, 240, 226)
ZONE_LINE = (186, 178, 160)
TONES: tuple[Colour, ...] = (
    (118, 56, 170), (0, 118, 128), (196, 96, 12), (40, 64, 152),
    (172, 40, 120), (104, 112, 24), (82, 92, 112), (142, 72, 40),
)
"""Tiles' tones (purple, teal, orange, navy, magenta, olive, slate, rust): dark enough
for outlines and numbers on light zones, none a nail colour."""
DARK = (36, 32, 30)
TABLE: dict[str, tuple[Colour, Colour, Colour]] = {
    # frame, table, grid line
    "square": ((32, 28, 26), (92, 68, 46), (106, 80, 56)),   # a workbench
    "octagon": ((12, 14, 30), (24, 30, 60), (38, 46, 86)),   # space
}
NAIL: dict[str, Colour] = {
    "red": (208, 40, 40), "green": (30, 150, 62), "blue": (40, 96, 214),
    "yellow": (236, 184, 16),
}
"""Each nail colour as drawn on a zone and in the header's swatches."""
NAIL_ON_DARK: dict[str, Colour] = {
    "red": (255, 104, 104), "green": (104, 222, 128), "blue": (130, 176, 255),
    "yellow": (255, 216, 72),
}
"""The same colours lightened, for letters on a dark badge."""
STEEL, STEEL_BG, WOOD = (140, 146, 160), (208, 211, 220), (170, 112, 58)
RAY, RAY_BG, BEAM, FLAME = (168, 176, 206), (214, 208, 230), (255, 60, 170), (255, 150, 40)
BADGE, BADGE_RIM, NO_ENTRY = (34, 34, 44), (236, 236, 236), (214, 30, 30)
COW, COW_SPOT, MUZZLE, HORN = (252, 252, 250), (30, 28, 28), (242, 164, 176), (236, 222, 186)

DRAW_TWO = "+2"
"""Draw Two's badge, the same in every language (Play Again and Ø are drawn as shapes)."""


# --- small helpers -----------------------------------------------------------------------


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` of the way to ``b``.

    >>> _mix((0, 0, 0), (200, 100, 50), 0.5)
    (100, 50, 25)
    """
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def _tone(number: int) -> Colour:
    """Tile ``number``'s own tone, as its rim in :func:`render_tile` and, unless a
    neighbour has it, its outline on the stack.

    >>> _tone(3) == TONES[3] and _tone(11) == TONES[3]
    True
    """
    return TONES[number % len(TONES)]


def _tones(owner: dict[Cell, int], order: Iterable[int], *, diagonal: bool = False
           ) -> dict[int, Colour]:
    """A tone for each tile on show, tiles whose cells touch side by side (or, with
    ``diagonal``, corner to corner, as octagons meeting along a slanted side do) told
    apart: each tile, bottom first, takes its own tone or the next one its neighbours
    left."""
    near: dict[int, set[int]] = {}
    steps = ((1, 0), (0, 1), (1, 1), (1, -1)) if diagonal else ((1, 0), (0, 1))
    for (x, y), number in owner.items():
        for other in (owner.get((x + dx, y + dy)) for dx, dy in steps):
            if other is not None and other != number:
                near.setdefault(number, set()).add(other)
                near.setdefault(other, set()).add(number)
    shown = set(owner.values())
    chosen: dict[int, int] = {}
    for number in order:
        if number in chosen or number not in shown:
            continue
        taken = {chosen[other] for other in near.get(number, ()) if other in chosen}
        free = [k for k in range(len(TONES)) if (number + k) % len(TONES) not in taken]
        chosen[number] = (number + (free[0] if free else 0)) % len(TONES)
    return {number: TONES[k] for number, k in chosen.items()}


def _nail(colour: str | None) -> Colour:
    return NAIL.get(colour or "", (128, 128, 128))


def _badge_text(mechanic: str, locale: str = "en") -> tuple[str, Colour]:
    """A mechanic's badge letters in ``locale`` and their colour.

    >>> _badge_text("cover-green")[0], _badge_text("remove")[0], _badge_text("mystery")[0]
    ('C', 'RM', 'MY')
    >>> _badge_text("search", "pt_BR")[0]
    'PB'
    """
    if mechanic.startswith("cover-"):
        return (translate("nails.badge.cover", locale),
                NAIL_ON_DARK.get(mechanic.removeprefix("cover-"), INK))
    letters = {"remove": translate("nails.badge.remove", locale),
               "search": translate("nails.badge.search", locale),
               "opp-discard": translate("nails.badge.opp_discard", locale),
               "discard": translate("nails.badge.discard", locale),
               "draw2": DRAW_TWO, "null": "Ø"}
    return letters.get(mechanic, mechanic[:2].upper()), INK


def _words(mechanic: str, nail_word: str = "nail") -> str:
    """A mechanic in a few words, in the locale spoken.

    >>> _words("cover-red", "ship"), _words("draw2")
    ('next player must cover a red ship', 'draw two')
    """
    if mechanic.startswith("cover-"):
        return tr("nails.picture.mechanic.cover",
                  nail=say(a_piece(nail_word, mechanic.removeprefix("cover-"))))
    words = {"again": lambda: tr("nails.picture.mechanic.again"),
             "remove": lambda: tr("nails.picture.mechanic.remove"),
             "search": lambda: tr("nails.picture.mechanic.search"),
             "draw2": lambda: tr("nails.picture.mechanic.draw2"),
             "null": lambda: tr("nails.picture.mechanic.null"),
             "opp-discard": lambda: tr("nails.picture.mechanic.opp_discard"),
             "discard": lambda: tr("nails.picture.mechanic.discard")}
    made = words.get(mechanic)
    return made() if made else mechanic


def _footprint(placement: Placement, shape: str) -> set[Cell]:
    """The cells a placement covers, with an octagon's centre.

    >>> sorted(_footprint(Placement(1, 2, 3), "square"))
    [(2, 3), (2, 4), (3, 3), (3, 4)]
    >>> len(_footprint(Placement(1, 2, 2), "octagon"))
    5
    """
    cells = {(placement.x + dx, placement.y + dy) for dx, dy in OFFSETS[shape]}
    if shape == "octagon":
        cells.add((placement.x, placement.y))
    return cells


# --- shapes ------------------------------------------------------------------------------


def _draw_shape(draw: ImageDraw.ImageDraw, name: str, size: int, colour: Colour) -> None:
    """Draw symbol ``name`` centred in a transparent ``size``-pixel square; ``colour`` is
    the nail's or ship's colour, or the tile's tone for a hub."""
    c, r = size / 2, size * 0.46
    w = max(1, round(size * 0.035))
    dark = _mix(colour, (0, 0, 0), 0.55)

    def at(points: Sequence[Point], angle: float = 0.0) -> list[Point]:
        return rotated(points, angle, c, c, r)

    def disc(x: float, y: float, radius: float, fill: Colour, outline: Colour | None = None
             ) -> None:
        draw.ellipse((c + (x - radius) * r, c + (y - radius) * r, c + (x + radius) * r,
                      c + (y + radius) * r), fill=fill, outline=outline, width=w)

    if name == "nail":  # upright, point down, then tilted so the head is top-right
        tilt = math.pi / 4
        shaft = [(-0.15, -0.74), (0.15, -0.74), (0.15, 0.5), (0, 0.98), (-0.15, 0.5)]
        head = [(-0.5, -0.97), (0.5, -0.97), (0.5, -0.72), (-0.5, -0.72)]
        draw.polygon(at(shaft, tilt), fill=colour, outline=dark, width=w)
        draw.polygon(at(head, tilt), fill=colour, outline=dark, width=w)
    elif name == "ship":
        flame = [(-0.2, 0.5), (0.2, 0.5), (0, 0.98)]
        hull = [(0, -0.96), (0.8, 0.84), (0, 0.44), (-0.8, 0.84)]
        draw.polygon(at(flame), fill=FLAME)
        draw.polygon(at(hull), fill=colour, outline=dark, width=w)
        disc(0, -0.02, 0.16, CARD, dark)
    elif name == "hammer":
        tilt = math.pi / 4
        handle = [(-0.1, -0.5), (0.1, -0.5), (0.12, 0.98), (-0.12, 0.98)]
        head = [(-0.6, -0.9), (0.55, -0.86), (0.55, -0.52), (-0.6, -0.48)]
        face = [(-0.8, -0.97), (-0.56, -0.97), (-0.56, -0.41), (-0.8, -0.41)]
        outline = (40, 40, 46)
        draw.polygon(at(handle, tilt), fill=WOOD, outline=outline, width=w)
        draw.polygon(at(head, tilt), fill=STEEL, outline=outline, width=w)
        draw.polygon(at(face, tilt), fill=_mix(STEEL, (0, 0, 0), 0.25), outline=outline,
                     width=w)
    elif name == "laser":  # a ray gun firing right, turned a little upward
        tilt = -math.pi / 7
        outline = (40, 40, 60)
        beam = [(-0.02, -0.02), (0.2, -0.34), (0.4, 0.12), (0.6, -0.4), (0.78, 0.0),
                (0.98, -0.36)]
        draw.line(at(beam, tilt), fill=BEAM, width=max(1, round(r * 0.14)), joint="curve")
        barrel = [(-0.95, -0.22), (-0.25, -0.22), (-0.05, -0.1), (-0.05, 0.1), (-0.25, 0.22),
                  (-0.95, 0.22)]
        grip = [(-0.86, 0.2), (-0.56, 0.2), (-0.62, 0.8), (-0.92, 0.8)]
        draw.polygon(at(grip, tilt), fill=_mix(RAY, (0, 0, 0), 0.3), outline=outline, width=w)
        draw.polygon(at(barrel, tilt), fill=RAY, outline=outline, width=w)
        for x in (-0.62, -0.44):
            draw.line(at([(x, -0.22), (x, 0.22)], tilt), fill=outline, width=w)
    elif name == "cow":
        outline = COW_SPOT
        for side in (-1, 1):
            draw.polygon(at([(side * 0.38, -0.62), (side * 0.86, -0.98), (side * 0.6, -0.5)]),
                         fill=HORN, outline=outline, width=w)
            draw.polygon(at([(side * 0.5, -0.42), (side * 0.98, -0.5), (side * 0.92, -0.2),
                             (side * 0.52, -0.2)]), fill=COW, outline=outline, width=w)
        disc(0, -0.1, 0.6, COW, outline)
        disc(-0.28, -0.38, 0.2, COW_SPOT)
        disc(0.36, -0.06, 0.14, COW_SPOT)
        disc(-0.22, -0.02, 0.07, COW_SPOT)
        disc(0.2, -0.3, 0.07, COW_SPOT)
        draw.ellipse((c - 0.5 * r, c + 0.18 * r, c + 0.5 * r, c + 0.82 * r), fill=MUZZLE,
                     outline=outline, width=w)
        disc(-0.18, 0.5, 0.07, outline)
        disc(0.18, 0.5, 0.07, outline)
    elif name == "hub":
        octagon = [(math.cos(math.pi * (k / 4 + 1 / 8)) * 0.62,
                    math.sin(math.pi * (k / 4 + 1 / 8)) * 0.62) for k in range(8)]
        draw.polygon(at(octagon), fill=_mix(CARD, colour, 0.3), outline=colour,
                     width=max(1, round(r * 0.12)))
    elif name == "again":  # ↻: an open ring with an arrowhead, on a dark disc
        disc(0, 0, 1.0, BADGE, BADGE_RIM)
        ring, stroke = 0.56, max(1, round(r * 0.2))
        draw.arc((c - ring * r, c - ring * r, c + ring * r, c + ring * r), start=-50,
                 end=220, fill=INK, width=stroke)
        end = math.radians(220)
        x, y = c + ring * r * math.cos(end), c + ring * r * math.sin(end)
        ux, uy = -math.sin(end), math.cos(end)   # clockwise along the ring
        nx, ny = math.cos(end), math.sin(end)    # out from the centre
        head, half = 0.42 * r, 0.3 * r
        draw.polygon([(x + ux * head, y + uy * head), (x + nx * half, y + ny * half),
                      (x - nx * half, y - ny * half)], fill=INK)
    elif name == "null":  # Ø: a no-entry sign
        disc(0, 0, 1.0, COW, NO_ENTRY)
        stroke = max(1, round(r * 0.22))
        ring = 0.78 * r
        draw.ellipse((c - ring, c - ring, c + ring, c + ring), outline=NO_ENTRY, width=stroke)
        d = ring * math.sqrt(0.5)
        draw.line((c + d, c - d, c - d, c + d), fill=NO_ENTRY, width=stroke)
    else:
        raise ValueError(f"no shape called {name!r}")


@lru_cache(maxsize=256)
def _icon(name: str, size: int, colour: Colour = (128, 128, 128)) -> Image.Image:
    """Symbol ``name`` as a smooth RGBA picture ``size`` pixels square (do not modify it)."""
    return supersampled(size, lambda draw, big: _draw_shape(draw, name, big, colour))


@lru_cache(maxsize=128)
def _badge(mechanic: str, size: int, locale: str) -> Image.Image:
    """A mechanic's badge, ``size`` pixels high, its letters in ``locale``, as RGBA (do not
    modify it)."""
    if mechanic in ("again", "null"):
        return _icon(mechanic, size)
    text, ink = _badge_text(mechanic, locale)
    big = size * SS
    letters = font(max(6, round(big * 0.64)))
    width = round(max(big, length(text, letters) + big * 0.55))
    image = Image.new("RGBA", (width, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width - 1, big - 1), radius=big // 2, fill=BADGE,
                           outline=BADGE_RIM, width=max(1, big // 14))
    draw_text(draw, (width / 2, big / 2), text, letters, ink, anchor="mm")
    return image.resize((max(size, round(width / SS)), size), Image.Resampling.LANCZOS)


def _symbol(zone: Zone, space: bool) -> str | None:
    if zone.kind == "nail":
        return "ship" if space else "nail"
    if zone.kind == "hammer":
        return "laser" if space else "hammer"
    return None


def _zone_fill(zone: Zone, space: bool, tone: Colour) -> Colour:
    if zone.kind == "nail":
        return _mix(CARD, _nail(zone.colour), 0.36)
    if zone.kind == "hammer":
        return RAY_BG if space else STEEL_BG
    return _mix(CARD, tone, 0.08)


@lru_cache(maxsize=2048)
def _zone_image(zone: Zone, space: bool, size: int, tone: Colour, locale: str) -> Image.Image:
    """One zone as an RGB square ``size`` pixels wide: its tint, its symbol and its
    mechanic's badge in the bottom-right corner (do not modify it)."""
    image = Image.new("RGB", (size, size), _zone_fill(zone, space, tone))
    ImageDraw.Draw(image).rectangle((0, 0, size - 1, size - 1), outline=ZONE_LINE)
    symbol = _symbol(zone, space)
    if symbol is not None:
        icon = _icon(symbol, max(4, round(size * 0.7)), _nail(zone.colour))
        at = ((size - icon.width) // 2, (size - icon.height) // 2)
        image.paste(icon, at, icon)
    if zone.mechanic:
        badge = _badge(zone.mechanic, max(6, round(size * 0.36)), locale)
        inset = max(1, size // 24)
        image.paste(badge, (size - badge.width - inset, size - badge.height - inset), badge)
    return image


@lru_cache(maxsize=512)
def _centre_image(centre: str, size: int, tone: Colour) -> Image.Image:
    """An octagonal tile's centre as an RGB square: a cow's face or a plain hub."""
    image = Image.new("RGB", (size, size), _mix(CARD, tone, 0.22))
    ImageDraw.Draw(image).rectangle((0, 0, size - 1, size - 1), outline=ZONE_LINE)
    icon = _icon("cow" if centre == "cow" else "hub", max(4, round(size * 0.78)), tone)
    at = (size - icon.width) // 2 + size // 16, (size - icon.height) // 2 + size // 16
    image.paste(icon, at, icon)
    return image


def _number(draw: ImageDraw.ImageDraw, x: float, y: float, number: int, size: int,
            tone: Colour) -> None:
    """A tile's number in its tone at (x, y), top-left aligned, with a light edge."""
    digits = font(max(7, round(size * 0.27)))
    draw_text(draw, (x + max(1, size // 18), y), str(number), digits, tone, anchor="la",
              stroke_width=1 if size >= 24 else 0, stroke_fill=CARD)


def _plate(image: Image.Image, x: float, y: float, number: int, height: int,
           tone: Colour) -> None:
    """A tile's number on a small pill in its tone (for single tiles)."""
    digits = font(max(7, round(height * 0.72)))
    width = max(height, round(digits.getlength(str(number)) + height * 0.6))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=tone,
                           outline=CARD, width=max(1, height // 12))
    draw_text(draw, (x + width / 2, y + height / 2 + 1), str(number), digits, CARD, anchor="mm")


# --- legends -------------------------------------------------------------------------------


def _legend_rows(mechanics: Iterable[str], nail_word: str, width: float
                 ) -> list[list[tuple[str, str, float]]]:
    """Badges with their words laid out in rows at most ``width`` wide: each row is a
    list of (mechanic, words, x)."""
    words_font = font(13)
    rows: list[list[tuple[str, str, float]]] = [[]]
    x = 0.0
    for mechanic in mechanics:
        words = _words(mechanic, nail_word)
        item = _badge(mechanic, 16, current()).width + 4 + length(words, words_font)
        if x and x + item > width:
            rows.append([])
            x = 0.0
        rows[-1].append((mechanic, words, x))
        x += item + 16
    return [row for row in rows if row]


def _draw_legend(image: Image.Image, rows: list[list[tuple[str, str, float]]], left: float,
                 top: float, ink: Colour) -> None:
    draw = ImageDraw.Draw(image)
    for k, row in enumerate(rows):
        mid = top + k * LEGEND_H + LEGEND_H / 2
        for mechanic, words, x in row:
            badge = _badge(mechanic, 16, current())
            image.paste(badge, (round(left + x), round(mid - 8)), badge)
            draw_text(draw, (left + x + badge.width + 4, mid), words, font(13), ink, anchor="lm")


def _ordered(mechanics: Iterable[str]) -> list[str]:
    """Distinct mechanics in the order of :data:`MECHANICS` (unknown ones last)."""
    seen = set(mechanics)
    known = [m for m in MECHANICS if m in seen]
    return known + sorted(seen - set(known))


# --- one tile and a hand -------------------------------------------------------------------


def _octagon(side: float, inset: float = 0.0) -> list[Point]:
    """An octagonal tile's outline in a square ``side`` wide (3 zones), ``inset`` in
    from it: its straight sides are the outer sides of the four zones around the
    centre, its slanted ones cut the corner squares corner to corner."""
    u, far = side / 3, side - inset
    cut = inset * (math.sqrt(2) - 1)  # keeps the slanted sides ``inset`` in too
    return [(u - cut, inset), (2 * u + cut, inset), (far, u - cut), (far, 2 * u + cut),
            (2 * u + cut, far), (u - cut, far), (inset, 2 * u + cut), (inset, u - cut)]


@lru_cache(maxsize=256)
def _octagon_body(zone: int, tone: Colour) -> Image.Image:
    """An octagonal tile without its zones: its corners tinted, as RGBA."""
    side = 3 * zone
    return supersampled(side, lambda draw, big: draw.polygon(
        _octagon(big - 1), fill=_mix(CARD, tone, 0.35)))


@lru_cache(maxsize=256)
def _octagon_rim(zone: int, tone: Colour, width: int) -> Image.Image:
    """An octagonal tile's rim, ``width`` pixels wide inside its outline, as RGBA."""
    side = 3 * zone

    def ring(draw: ImageDraw.ImageDraw, big: int) -> None:
        draw.polygon(_octagon(big - 1), fill=tone)
        draw.polygon(_octagon(big - 1, width * SS), fill=(0, 0, 0, 0))

    return supersampled(side, ring)


@lru_cache(maxsize=1024)
def _octagon_tile(tile: Tile, rotation: int, zone: int, tone: Colour,
                  locale: str) -> Image.Image:
    """An octagonal tile, turned ``rotation`` degrees, 3 zones of ``zone`` pixels wide,
    as RGBA with transparent corners: the same picture in a hand and on the stack (do
    not modify it)."""
    turn = rotation // 90
    image = _octagon_body(zone, tone).copy()
    for i, (dx, dy) in enumerate(OFFSETS["octagon"]):
        cell = _zone_image(tile.zones[(i - turn) % 4], True, zone, tone, locale)
        image.paste(cell, ((1 + dx) * zone, (1 + dy) * zone))
    image.paste(_centre_image(tile.centre or "blank", zone, tone), (zone, zone))
    rim = _octagon_rim(zone, tone, _rim_width(zone))
    image.alpha_composite(rim)
    return image


def _rim_width(zone: int) -> int:
    """How wide a tile's outline is with zones (cells) ``zone`` pixels wide."""
    return max(2, zone // 14)


def render_tile(tile: Tile, *, rotation: int = 0, scale: float = 1.0) -> Image.Image:
    """One tile as an RGBA picture with a transparent background, turned ``rotation``
    degrees clockwise as the rules turn it (the zone shown at place ``i`` is
    ``tile.zones[(i - rotation // 90) % 4]``; symbols stay upright), its number on a
    pill in the top-left corner and its rim in the tile's tone (the tone that outlines
    it on the stack). A square tile is 2×2 zones, about 120 pixels at ``scale`` 1;
    an octagonal one is an octagon around a plus of four zones and the centre, drawn
    as on the stack (its corners cut through the corner squares)."""
    if rotation not in ROTATIONS:
        raise ValueError(f"turn a tile by 0, 90, 180 or 270 degrees, not {rotation}")
    return _tile_picture(tile, rotation, scale, current()).copy()


@lru_cache(maxsize=512)
def _tile_picture(tile: Tile, rotation: int, scale: float, locale: str) -> Image.Image:
    """:func:`render_tile`'s picture, drawn once: every hand shown draws its tiles again,
    and a tile always looks the same (callers get a copy to paste or draw on)."""
    tone = _tone(tile.number)
    if tile.centre is not None:
        zone = max(10, round(OCT_ZONE * scale))
        image = _octagon_tile(tile, rotation, zone, tone, locale).copy()
        _plate(image, 1, 1, tile.number, max(12, round(zone * 0.34)), tone)
        return image
    turn = rotation // 90
    shown = [tile.zones[(i - turn) % 4] for i in range(4)]
    zone = max(10, round(ZONE * scale))
    rim = max(2, round(zone * 0.08))
    side = 2 * zone + 2 * rim

    def body(draw: ImageDraw.ImageDraw, big: int) -> None:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=rim * SS * 2, fill=tone)

    image = supersampled(side, body)
    for (dx, dy), shown_zone in zip(OFFSETS["square"], shown, strict=True):
        cell = _zone_image(shown_zone, False, zone, tone, locale)
        image.paste(cell, (rim + dx * zone, rim + dy * zone))
    _plate(image, 1, 1, tile.number, max(12, round(zone * 0.34)), tone)
    return image


def render_hand(tiles: Sequence[Tile]) -> bytes:
    """PNG of a hand: the tiles in a row (rows of six) at rotation 0, ``tile N`` under
    each, and a legend: zones clockwise from the top-left (or top), how to turn them,
    and the words for each mechanic badge shown. An empty hand is a small picture
    saying so."""
    frame = TABLE["octagon" if tiles and tiles[0].centre else "square"][0]
    title_font, caption_font, legend_font = font(16), font(15), font(13)
    if not tiles:
        empty = tr("nails.picture.hand_empty")
        side = max(320, round(length(empty, title_font)) + 2 * PAD)
        image = Image.new("RGB", (side, 64), frame)
        draw_text(ImageDraw.Draw(image), (side / 2, 32), empty, title_font, DIM, anchor="mm")
        return png(image)
    pictures = [render_tile(tile) for tile in tiles]
    w = max(p.width for p in pictures)
    h = max(p.height for p in pictures)
    gap, caption_h, title_h = 14, 24, 32
    per_row = min(len(tiles), HAND_PER_ROW)
    rows = -(-len(tiles) // per_row)
    width = max(MIN_WIDTH, 2 * PAD + per_row * (w + gap) - gap)
    space = tiles[0].centre is not None
    how = (tr("nails.picture.hand_help_octagon", example="17@C3") if space
           else tr("nails.picture.hand_help_square", example="17@C4"))
    lines = wrap(how, legend_font, width - 2 * PAD)
    legend = _legend_rows(_ordered(m for t in tiles for m in t.mechanics),
                          "ship" if space else "nail", width - 2 * PAD)
    height = (title_h + rows * (h + caption_h + 6) + len(lines) * 18 + 6
              + len(legend) * LEGEND_H + PAD)
    image = Image.new("RGB", (width, height), frame)
    draw = ImageDraw.Draw(image)
    title = fit(trn("nails.picture.hand", len(tiles)), title_font, width - 2 * PAD)
    draw_text(draw, (PAD, title_h // 2 + 2), title, title_font, INK, anchor="lm")
    for k, (tile, picture) in enumerate(zip(tiles, pictures, strict=True)):
        row, col = divmod(k, per_row)
        x = PAD + col * (w + gap)
        y = title_h + row * (h + caption_h + 6)
        image.paste(picture, (x + (w - picture.width) // 2, y), picture)
        caption = fit(tr("nails.tile", tile=tile.number), caption_font, w + gap - 2)
        draw_text(draw, (x + w / 2, y + h + caption_h // 2 + 1), caption, caption_font, INK,
                  anchor="mm")
    y = title_h + rows * (h + caption_h + 6)
    for line in lines:
        draw_text(draw, (PAD, y + 9), line, legend_font, DIM, anchor="lm")
        y += 18
    _draw_legend(image, legend, PAD, y + 6, DIM)
    return png(image)


# --- the build stack -----------------------------------------------------------------------


def _seat_text(view: NailsView, names: Sequence[str], seat: int) -> str:
    colour = say(colour_name(view.colours[seat]))
    team = view.colours.count(view.colours[seat]) > 1
    penalty = view.penalties[seat]
    args = {"name": names[seat], "colour": colour, "showing": view.showing[seat],
            "hand": view.hand_sizes[seat], "penalty": penalty}
    if team:
        text = (tr("nails.picture.seat_team_penalty", **args) if penalty
                else tr("nails.picture.seat_team", **args))
    else:
        text = (tr("nails.picture.seat_penalty", **args) if penalty
                else tr("nails.picture.seat", **args))
    return tr("nails.picture.seat_out", seat=text) if seat in view.went_out else text


def _status(view: NailsView, names: Sequence[str]) -> list[str]:
    """The header's lines under the players: deck, turn, obligation, the last placement."""
    objective = say(goal(view))
    deck = trn("nails.picture.deck", view.deck_size)
    if view.outcome is not None:
        first = tr("nails.picture.status_over", deck=deck, goal=objective)
    else:
        others = [s for s in view.waiting if s != view.turn]
        turn = (tr("nails.picture.turn_waiting", name=names[view.turn],
                   others=", ".join(names[s] for s in others)) if others
                else tr("nails.picture.turn", name=names[view.turn]))
        first = (tr("nails.picture.status_final", deck=deck, turn=turn, goal=objective)
                 if view.final_round else
                 tr("nails.picture.status", deck=deck, turn=turn, goal=objective))
    lines = [first]
    second = []
    if view.obligation is not None and view.outcome is None:
        colour, _ = view.obligation
        nail = say(a_piece(view.nail_word, colour))
        second.append(tr("nails.picture.must_cover", name=names[view.turn], nail=nail)
                      if view.phase in ("cover", "challenge", "forced-cover") else
                      tr("nails.picture.next_must_cover", nail=nail))
    if view.last is not None:
        fired = ", ".join(_words(m, view.nail_word) for m in view.fired)
        second.append(tr("nails.picture.last_fired", placement=view.last.notation, fired=fired)
                      if fired else tr("nails.picture.last", placement=view.last.notation))
    if second:
        lines.append(" · ".join(second))
    return lines


def _result(view: NailsView, names: Sequence[str]) -> list[str]:
    outcome = view.outcome
    if outcome is None:
        return []
    reason = say(reason_words(outcome, names))
    if outcome.is_draw:
        head = tr("nails.picture.over_draw", reason=reason)
    else:
        winners = [names[seat] for seat in outcome.winners]
        head = trn("nails.picture.over_win", len(winners), reason=reason,
                   who=tr("nails.picture.and", first=", ".join(winners[:-1]), last=winners[-1])
                   if len(winners) > 1 else winners[0])
    lines = [head]
    if outcome.scores is not None:
        lines.append(tr("nails.picture.count", counts=" · ".join(
            f"{names[s]} {outcome.scores[s]}" for s in range(len(outcome.scores)))))
    return lines


def _labels(draw: ImageDraw.ImageDraw, bounds: tuple[int, int, int, int], font: Font,
            left: int, top: int, cell: int, edge: int, space: bool) -> None:
    """Column and row names on all four edges; on a dense grid every few, and on an
    octagon grid the even ones (where centres go) bright and the odd ones dim."""
    x0, y0, x1, y1 = bounds
    right, bottom = left + (x1 - x0 + 1) * cell, top + (y1 - y0 + 1) * cell
    size = font.size if isinstance(font, ImageFont.FreeTypeFont) else 10
    widest = max(font.getlength(column_name(x)) for x in (x0, x1))
    across = -(-(int(widest) + 4) // cell)
    down = -(-(int(size) + 2) // cell)
    if space:
        across, down = (step + step % 2 if step > 1 else 1 for step in (across, down))
    for x in range(x0, x1 + 1):
        if x % across:
            continue
        cx = left + (x - x0) * cell + cell / 2
        fill = DIM if space and x % 2 else INK
        draw_text(draw, (cx, top - edge / 2), column_name(x), font, fill, anchor="mm")
        draw_text(draw, (cx, bottom + edge / 2), column_name(x), font, fill, anchor="mm")
    for y in range(y0, y1 + 1):
        if y % down:
            continue
        cy = top + (y - y0) * cell + cell / 2
        fill = DIM if space and y % 2 else INK
        draw_text(draw, (left - edge / 2, cy), row_name(y), font, fill, anchor="mm")
        draw_text(draw, (right + edge / 2, cy), row_name(y), font, fill, anchor="mm")


def _edges(cells: set[Cell], cell: Cell) -> Iterable[tuple[int, int]]:
    """The sides (as unit steps) of ``cell`` whose neighbour is not in ``cells``."""
    x, y = cell
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        if (x + dx, y + dy) not in cells:
            yield dx, dy


def _strip(draw: ImageDraw.ImageDraw, px: int, py: int, cell: int, side: tuple[int, int],
           width: int, fill: Colour) -> None:
    """A band ``width`` thick along one side of the cell at (px, py), inside it."""
    far = cell - 1
    box = {(0, -1): (px, py, px + far, py + width - 1),
           (1, 0): (px + far - width + 1, py, px + far, py + far),
           (0, 1): (px, py + far - width + 1, px + far, py + far),
           (-1, 0): (px, py, px + width - 1, py + far)}[side]
    draw.rectangle(box, fill=fill)


def render_stack(view: NailsView, names: Sequence[str]) -> bytes:
    """PNG of the build stack of ``view`` seen from above; ``names`` are the seats'
    display names.

    Each cell shows its visible zone (the stack replayed bottom-up); tiles are
    outlined in their own tones with their numbers, octagons' centres drawn at their
    even points, the last placement framed in gold, coordinates on all four edges,
    the players and the state of play above and the result and the mechanics' badges
    below. Cells shrink on big stacks so that neither side passes :data:`MAX_SIDE`
    (and the picture is at least :data:`MIN_WIDTH` wide).
    """
    space = view.shape == "octagon"
    frame, table, grid_line = TABLE["octagon" if space else "square"]
    stack = BuildStack(cast(Shape, view.shape))
    for tile, placement in view.layers:
        stack.place(tile, placement, first=True)
    visible = stack.visible_zones()
    owner: dict[Cell, int] = {cell: number for cell, (number, _) in visible.items()}
    for point, tile in stack.centres.items():
        owner[point] = tile.number
    last = _footprint(view.last, view.shape) if view.last is not None else set()
    cells = set(owner) | last or {(0, 0)}
    bounds = (min(x for x, _ in cells) - 1, min(y for _, y in cells) - 1,
              max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1)
    x0, y0, x1, y1 = bounds
    columns, rows = x1 - x0 + 1, y1 - y0 + 1

    seat_names = [short(seat_name(names, seat, tr("nails.picture.player")))
                  for seat in range(view.seats)]
    text_font = font(15)
    header = [_seat_text(view, seat_names, seat) for seat in range(view.seats)]
    status = _status(view, seat_names)
    result = _result(view, seat_names)
    badges = _ordered(zone.mechanic for _, zone in visible.values() if zone.mechanic)
    header_h = PAD + (len(header) + len(status)) * LINE_H + 6
    wanted = max(length(t, text_font) for t in header + status + result) + 2 * PAD + 40

    def footer_height(width: int) -> tuple[list[str], list[list[tuple[str, str, float]]],
                                            int]:
        lines = [line for text in result for line in wrap(text, font(16), width - 2 * PAD)]
        legend = _legend_rows(badges, view.nail_word, width - 2 * PAD)
        height = len(lines) * LINE_H + len(legend) * LEGEND_H + (PAD if lines or legend
                                                                  else 0) + 6
        return lines, legend, height

    for cell in range(CELL, MIN_CELL - 1, -1):
        label_font = font(max(9, min(15, cell * 3 // 10)))
        row_w = max(label_font.getlength(row_name(y)) for y in (y0, y1))
        edge = max(20, int(row_w) + 10, int(label_font.getlength("M")) + 14)
        width = max(MIN_WIDTH, columns * cell + 2 * edge, min(MAX_SIDE, int(wanted)))
        lines, legend, footer_h = footer_height(width)
        height = header_h + rows * cell + 2 * edge + footer_h
        if width <= MAX_SIDE and height <= MAX_SIDE:
            break  # else the smallest cells, and the whole picture scaled down
    grid_w, grid_h = columns * cell, rows * cell
    image = Image.new("RGB", (width, height), frame)
    draw = ImageDraw.Draw(image)
    left, top = (width - grid_w) // 2, header_h + edge

    # The header: one line per player, then the state of play.
    for seat, text in enumerate(header):
        mid = PAD + seat * LINE_H + LINE_H // 2
        if seat == view.turn and view.outcome is None:
            draw.polygon(((PAD, mid - 6), (PAD, mid + 6), (PAD + 10, mid)), fill=INK)
        colour = view.colours[seat]
        draw.rounded_rectangle((PAD + 16, mid - 7, PAD + 30, mid + 7), radius=3,
                               fill=_nail(colour), outline=_mix(_nail(colour), (0, 0, 0), 0.5))
        draw_text(draw, (PAD + 38, mid), fit(text, text_font, width - PAD - 38 - PAD), text_font,
                  INK if seat == view.turn or view.outcome else DIM, anchor="lm")
    for k, text in enumerate(status):
        mid = PAD + (len(header) + k) * LINE_H + LINE_H // 2
        draw_text(draw, (PAD, mid), fit(text, text_font, width - 2 * PAD), text_font,
                  INK if k == 0 else DIM, anchor="lm")

    # The table, its grid and, for octagons, the points where centres may go.
    draw.rectangle((left, top, left + grid_w - 1, top + grid_h - 1), fill=table)
    for k in range(columns + 1):
        draw.line((left + k * cell, top, left + k * cell, top + grid_h), fill=grid_line)
    for k in range(rows + 1):
        draw.line((left, top + k * cell, left + grid_w, top + k * cell), fill=grid_line)
    _labels(draw, bounds, label_font, left, top, cell, edge, space)

    def corner(c: Cell) -> tuple[int, int]:
        return left + (c[0] - x0) * cell, top + (c[1] - y0) * cell

    if space:
        dot = max(1, cell // 12)
        for x in range(x0 + x0 % 2, x1 + 1, 2):
            for y in range(y0 + y0 % 2, y1 + 1, 2):
                if (x, y) not in owner:
                    px, py = corner((x, y))
                    mx, my = px + cell // 2, py + cell // 2
                    draw.ellipse((mx - dot, my - dot, mx + dot, my + dot), fill=grid_line)

    # The visible zones, the centres, the tiles' outlines and numbers.
    tones = _tones(owner, (tile.number for tile, _ in view.layers), diagonal=space)
    border = _rim_width(cell)
    if space:
        # Whole octagons bottom first, as in a hand: each covers what it lies on, so
        # every cell ends up showing its visible zone, and each corner square the
        # top-most tile's corner.
        for tile, placement in view.layers:
            picture = _octagon_tile(tile, placement.rotation, cell, tones[tile.number],
                                    current())
            image.paste(picture, corner((placement.x - 1, placement.y - 1)), picture)
    else:
        for c, (number, zone) in visible.items():
            image.paste(_zone_image(zone, space, cell, tones[number], current()), corner(c))
    by_tile: dict[int, set[Cell]] = {}
    for c, number in owner.items():
        by_tile.setdefault(number, set()).add(c)
    centre_of = {tile.number: point for point, tile in stack.centres.items()}
    for number, own in by_tile.items():
        tone = tones[number]
        if not space:
            for c in own:
                px, py = corner(c)
                for side in _edges(own, c):
                    _strip(draw, px, py, cell, side, border, tone)
        first = centre_of.get(number) or min(own, key=lambda c: (c[1], c[0]))
        px, py = corner(first)
        _number(draw, px + border, py + border, number, cell, tone)

    # The last placement, framed in gold (an octagon's frame along its outline).
    frame_w = max(2, cell // 9)
    if space and view.last is not None:
        ring = _octagon_rim(cell, GOLD, frame_w)
        image.paste(ring, corner((view.last.x - 1, view.last.y - 1)), ring)
    else:
        for c in last:
            px, py = corner(c)
            for side in _edges(last, c):
                _strip(draw, px, py, cell, side, frame_w, GOLD)

    # The footer: the result, then what the badges on show mean.
    y = top + grid_h + edge
    for line in lines:
        draw_text(draw, (width // 2, y + LINE_H // 2), line, font(16), RESULT, anchor="mm")
        y += LINE_H
    _draw_legend(image, legend, PAD, y + 4, DIM)
    return png(image)
