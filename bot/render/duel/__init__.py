"""Arcane Duel's pictures: one card, a hand and the public table, as PNGs.

**A card** (:func:`card_image`, :data:`CARD_W` × :data:`CARD_H`) is drawn from its data
alone: the edition's border (white for ``unlimited``, black for ``limited``), a frame in
the card's colour (:func:`frame_kind`: one of the five colours, grey steel for an
artifact, brown earth for a land, gold for a cost of several colours), the name with the
cost as mana circles (a coloured disc with its letter, a grey disc with the generic number
or X), the art, the type line, the rules text written from the card's effects
(:meth:`~rules.duel.cards.CardDef.text`, the same words as ``croupier cards duel``) with
the flavour text when it fits, and power/toughness in a box for a creature. Rarity is never
printed. The art is generated (:mod:`bot.render.duel.art`): shapes in the card's colours,
placed by a random generator seeded from a hash of the card's name, so a card always has
the same picture and no two cards share one; what it shows follows the card's data (a
creature as what it is, a person, a beast, a bird, a wall, a plant..., with wings if it
flies; a bolt for an instant; rings for an enchantment; a cog for an artifact; the
landscape of a basic land).

**A hand** (:func:`render_hand`) is the cards overlapping like a fanned hand held up: each
lies a name bar lower and a little to the right of the one before, so every name and cost
stays readable. Castable cards are framed in green with a tick beside them; the others are
dimmed a little.

**The table** (:func:`render_battlefield`) is one picture, :data:`WIDTH` wide (wider, with
more tiles a row, only when it would otherwise be taller than the 1400 px limit): a header
(turn, active player, phase, who is deciding), then one band per seat in seat order: name,
life, library, hand and graveyard counts (counts only: it reads nothing but the view's
public fields, so a seat's view and a spectator's draw the same picture), a TURN mark for
the active player and TO ACT for whoever decides, OUT (and dimmed) for a player who lost;
the lands as chips grouped by name (how many, how many tapped); the other permanents as
small tiles (:data:`TILE_W` × :data:`TILE_H`; turned 90° when tapped) with their power and
toughness as they are now, damage, regeneration shields and summoning sickness, and the
auras that enchant them as tabs under them. During an attack, attackers are framed orange
and marked ATK, blockers cyan and marked BLK (not red and blue: those are cards' colours),
each pair numbered alike and joined by a line. The stack, while it is not
empty, is listed top first with its controller, target and X.

Every text goes through :func:`bot.render.common.draw_text` (the built-in font only), so
names with emoji or accents are drawn with stand-ins. Faces, tiles, art and mana symbols
are cached, so a card or a table takes a few milliseconds once warm; the caches are
bounded (full, they hold some 40 MB: a face is half a megabyte), since a bot serving many
duels would otherwise keep every card it ever drew.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.common import (
    MAX_SIDE,
    Colour,
    Font,
    ascii_text,
    draw_text,
    fit,
    font,
    length,
    png,
    seat_name,
    supersampled,
    wrap,
)
from bot.render.duel.art import card_art, motif, palette, shade
from rules.duel.cards import CardDef, card, keyword_words
from rules.duel.state import DuelView
from rules.duel.text import asking_words

# --- sizes ---------------------------------------------------------------------------------

CARD_W, CARD_H = 300, 420
"""A card's full size in pixels: shown 1:1 on a phone (about 400 px wide)."""
BORDER = 12
"""Width of the edition's border around the frame."""
NAME_BAR = (22, 20, 278, 56)
ART_BOX = (24, 62, 276, 222)
TYPE_BAR = (22, 228, 278, 256)
TEXT_BOX = (22, 262, 278, 398)
PT_BOX = (206, 380, 284, 410)
TEXT_FONTS = (17, 16)
"""Rules text sizes tried in turn until the text fits its box: never under 16, so that a
pack, which shows cards at three quarters of their size, still shows it 12 px high.
Rules too long for the box at 16 take room from the art (:func:`face_boxes`)."""
MIN_ART_H = 72
"""The least art a card keeps when its rules text takes room from it."""
SYMBOL = 24
"""Diameter of a mana circle in the cost."""

WIDTH = 520
"""Width of the table: narrow, so a phone (400 px) scales it down little (to 77 %)."""
WIDER = (640, 960, 1280)
"""Widths tried in turn for a table that would be taller than MAX_SIDE at :data:`WIDTH`
(more tiles a row), before it is scaled down to fit."""
PAD = 10
INSET = 8
TILE_W, TILE_H = 92, 122
"""A permanent's tile on the table, untapped (a tapped one is turned: 122 × 92)."""
TILE_ART_BOTTOM = 80
"""Where a tile's art ends: under it one line of keywords, then power/toughness."""
TAB_H = 20
"""Height of an aura's tab under what it enchants."""
GAP = 6
CHIP_H = 38
"""Height of a land chip."""
HEAD_H = 58
"""Height of a player band's header (name, marks, life, counts)."""

HAND_DX, HAND_DY = 18, 58
"""How far each card of a hand lies right of and below the one before it: the name bar
(with the cost) of every card shows."""
HAND_GUTTER = 40
"""Room at a hand's left for the ticks of castable cards."""
HAND_COLUMN = 12
"""Most cards in one column of a hand (a bigger hand takes more columns)."""
HAND_TITLE = 34

# --- colours -------------------------------------------------------------------------------

EDITION_BORDER: dict[str, Colour] = {"unlimited": (246, 244, 238), "limited": (16, 16, 18)}
"""The border of each edition: white for unlimited, black for limited."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The colours of one kind of card frame."""

    frame: Colour
    bar: Colour
    """The name and type bars."""
    box: Colour
    """The text box."""
    ink: Colour = (24, 22, 20)


FRAMES: dict[str, Frame] = {
    "W": Frame((222, 212, 170), (248, 242, 220), (252, 249, 236)),
    "U": Frame((52, 104, 176), (196, 218, 240), (232, 240, 250)),
    "B": Frame((58, 52, 64), (188, 180, 190), (230, 226, 230)),
    "R": Frame((184, 58, 40), (242, 198, 184), (251, 236, 230)),
    "G": Frame((52, 128, 66), (192, 226, 192), (234, 245, 232)),
    "artifact": Frame((138, 142, 152), (214, 216, 222), (238, 239, 242)),
    "land": Frame((146, 110, 72), (226, 208, 182), (244, 236, 224)),
    "gold": Frame((204, 162, 52), (244, 228, 172), (251, 245, 224)),
}
"""Frame colours by :func:`frame_kind`."""

MANA: dict[str, tuple[Colour, Colour]] = {
    "W": ((250, 242, 196), (70, 60, 20)), "U": ((64, 128, 212), (255, 255, 255)),
    "B": ((52, 44, 58), (236, 228, 240)), "R": ((214, 70, 44), (255, 255, 255)),
    "G": ((60, 150, 76), (255, 255, 255)), "generic": ((196, 192, 186), (30, 28, 26)),
}
"""Fill and letter of each mana circle."""

BG = (22, 26, 34)
BAND = (38, 44, 58)
OUT_BAND = (34, 34, 38)
STACK_BAND = (52, 42, 70)
INK = (236, 238, 244)
DIM = (150, 156, 172)
GOLD = (246, 192, 52)
ACT = (60, 170, 96)
OUT = (110, 110, 118)
ATTACK = (255, 150, 20)
BLOCK = (40, 220, 230)
TARGET = (200, 110, 240)
DAMAGE = (200, 40, 36)
SHIELD = (60, 110, 200)
SICK = (110, 110, 120)
PLAYABLE = (64, 210, 100)
LIFE = (220, 64, 80)


# --- what a card is drawn as ---------------------------------------------------------------


def frame_kind(colours: Iterable[str], card_type: str) -> str:
    """Which frame a card has: ``gold`` when its cost asks for several colours, else its
    one colour (``W`` … ``G``), ``land`` for a land, ``artifact`` for an artifact.

    >>> frame_kind(["R"], "instant"), frame_kind(["W", "U"], "creature")
    ('R', 'gold')
    >>> frame_kind([], "land"), frame_kind([], "artifact creature")
    ('land', 'artifact')
    """
    distinct = set(colours)
    if len(distinct) > 1:
        return "gold"
    if distinct:
        return distinct.pop()
    return "land" if card_type == "land" else "artifact"


def _kind_of(data: CardDef) -> str:
    return frame_kind(data.cost_parts.colours, data.type)


def _edition(edition: str) -> Colour:
    if edition not in EDITION_BORDER:
        raise ValueError(f"no edition {edition!r} (unlimited or limited)")
    return EDITION_BORDER[edition]


# --- art -----------------------------------------------------------------------------------


def _art_of(data: CardDef, w: int, h: int) -> Image.Image:
    return card_art(data.name, palette(data, _kind_of(data)), motif(data), w, h)


# --- mana symbols --------------------------------------------------------------------------


def cost_symbols(data: CardDef) -> list[str]:
    """The symbols of a card's cost, in print order: ``X``, the generic number, then
    one letter per coloured mana.

    >>> cost_symbols(card("Kindlewhip")), cost_symbols(card("Dawnfield"))
    (['R'], [])
    """
    cost = data.cost_parts
    symbols = ["X"] if cost.x else []
    if cost.generic or (not cost.coloured and not cost.x and data.type != "land"):
        symbols.append(str(cost.generic))
    symbols += [c for c, n in cost.coloured for _ in range(n)]
    return symbols


@lru_cache(maxsize=64)
def mana_symbol(symbol: str, size: int) -> Image.Image:
    """One mana circle, RGBA ``size`` pixels square: a coloured disc with its letter,
    or a grey one with a number or X (do not modify it)."""
    fill, letter = MANA.get(symbol, MANA["generic"])

    def disc(draw: ImageDraw.ImageDraw, big: int) -> None:
        draw.ellipse((1, 1, big - 2, big - 2), fill=fill, outline=(20, 20, 20),
                     width=max(1, big // 14))

    image = supersampled(size, disc)
    draw_text(ImageDraw.Draw(image), (size / 2, size / 2 + 1), symbol,
              font(round(size * 0.62)), letter, anchor="mm")
    return image


def _paste(image: Image.Image, piece: Image.Image, x: float, y: float) -> None:
    """``piece`` laid on ``image`` at (x, y), through its transparency."""
    at = (round(x), round(y))
    if image.mode == "RGBA":
        image.alpha_composite(piece, at)
    else:
        image.paste(piece, at, piece)


# --- a card --------------------------------------------------------------------------------


_rules_text = CardDef.text
"""A card's rules text, written from its data (called by this name so that no call in
this module looks like Pillow's ``draw.text``, which only :func:`draw_text` may make)."""


def _text_room(data: CardDef, text_box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The width and height rules text may take in ``text_box`` (clear of the
    power/toughness box on a creature)."""
    x0, y0, x1, y1 = text_box
    bottom = (PT_BOX[1] - 2) if data.is_creature else y1 - 6
    return x1 - x0 - 16, bottom - y0 - 8


def _rules_lines(data: CardDef, face: Font, width: float) -> list[str]:
    return [line for part in _rules_text(data).split("\n") if part
            for line in wrap(part, face, width)]


def face_boxes(data: CardDef) -> tuple[tuple[int, int, int, int], ...]:
    """Where a card's art, type bar and text box lie: :data:`ART_BOX`, :data:`TYPE_BAR`
    and :data:`TEXT_BOX`, except for rules too long to fit at the smallest of
    :data:`TEXT_FONTS`, whose text box grows up into the art (which keeps at least
    :data:`MIN_ART_H`).

    >>> face_boxes(card("Kindlewhip")) == (ART_BOX, TYPE_BAR, TEXT_BOX)
    True
    """
    width, height = _text_room(data, TEXT_BOX)
    size = TEXT_FONTS[-1]
    need = len(_rules_lines(data, font(size), width)) * (size + 3)
    grow = min(max(0, math.ceil(need - height)), ART_BOX[3] - ART_BOX[1] - MIN_ART_H)
    up = (0, -grow, 0, -grow)
    return (tuple(a + d for a, d in zip(ART_BOX, (0, 0, 0, -grow), strict=True)),
            tuple(a + d for a, d in zip(TYPE_BAR, up, strict=True)),
            tuple(a + d for a, d in zip(TEXT_BOX, (0, -grow, 0, 0), strict=True)))


def _text_lines(data: CardDef, width: float, height: float) -> tuple[Font, list[tuple[str, bool]]]:
    """The rules text (and the flavour text, when it fits too) wrapped into the text box:
    the biggest of :data:`TEXT_FONTS` at which the rules fit; each line with whether it
    is flavour."""
    flavour = ascii_text(f"“{data.flavor}”") if data.flavor else ""
    for size in TEXT_FONTS:
        face = font(size)
        step = size + 3
        lines = [(line, False) for line in _rules_lines(data, face, width)]
        if len(lines) * step > height and size != TEXT_FONTS[-1]:
            continue
        extra = [(line, True) for line in wrap(flavour, face, width)] if flavour else []
        if (len(lines) + len(extra)) * step + (4 if lines else 0) <= height:
            lines += extra
        return face, lines[: max(1, int(height // step))]
    raise AssertionError("unreachable")  # pragma: no cover - the last size always returns


def draw_face(data: CardDef, edition: str = "unlimited") -> Image.Image:
    """Card ``data`` drawn whole, RGBA :data:`CARD_W` × :data:`CARD_H` with rounded,
    transparent corners (uncached: :func:`card_image` keeps the set's faces).
    :class:`ValueError` for an unknown edition."""
    border = _edition(edition)
    colours = FRAMES[_kind_of(data)]
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=16, fill=border)
    draw.rounded_rectangle((BORDER, BORDER, CARD_W - 1 - BORDER, CARD_H - 1 - BORDER),
                           radius=8, fill=colours.frame)
    _name_bar(image, draw, data, colours)
    art_box, type_bar, text_box = face_boxes(data)
    x0, y0, x1, y1 = art_box
    art = _art_of(data, ART_BOX[2] - ART_BOX[0], ART_BOX[3] - ART_BOX[1])
    image.paste(art if art_box == ART_BOX else _crop_to(art, x1 - x0, y1 - y0), (x0, y0))
    draw.rectangle((x0 - 1, y0 - 1, x1, y1), outline=shade(colours.frame, -0.5), width=1)
    _type_bar(image, draw, data, colours, type_bar)
    _text_box(draw, data, colours, text_box)
    if data.is_creature:
        _pt_box(draw, f"{data.power}/{data.toughness}", colours)
    return image


def _name_bar(image: Image.Image, draw: ImageDraw.ImageDraw, data: CardDef,
              colours: Frame) -> None:
    x0, y0, x1, y1 = NAME_BAR
    draw.rounded_rectangle(NAME_BAR, radius=6, fill=colours.bar,
                           outline=shade(colours.frame, -0.4), width=1)
    symbols = cost_symbols(data)
    cost_w = len(symbols) * (SYMBOL + 2)
    x = x1 - 6 - cost_w
    for symbol in symbols:
        _paste(image, mana_symbol(symbol, SYMBOL), x, (y0 + y1 - SYMBOL) / 2)
        x += SYMBOL + 2
    name_font = font(20)
    name = fit(data.name, name_font, x1 - x0 - 16 - cost_w)
    draw_text(draw, (x0 + 8, (y0 + y1) / 2), name, name_font, colours.ink, anchor="lm")


def _type_bar(image: Image.Image, draw: ImageDraw.ImageDraw, data: CardDef,
              colours: Frame, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=6, fill=colours.bar,
                           outline=shade(colours.frame, -0.4), width=1)
    made = list(data.produces)  # a land shows the mana it makes where a cost would be
    size = 20
    x = x1 - 6 - len(made) * (size + 2)
    for colour in made:
        _paste(image, mana_symbol(colour, size), x, (y0 + y1 - size) / 2)
        x += size + 2
    draw_text(draw, (x0 + 8, (y0 + y1) / 2), fit(data.type_line(), font(16), x - x0 - 12),
              font(16), colours.ink, anchor="lm")


def _text_box(draw: ImageDraw.ImageDraw, data: CardDef, colours: Frame,
              box: tuple[int, int, int, int]) -> None:
    x0, y0, _, _ = box
    draw.rectangle(box, fill=colours.box, outline=shade(colours.frame, -0.4), width=1)
    face, lines = _text_lines(data, *_text_room(data, box))
    step = int(face.size) + 3 if hasattr(face, "size") else 16
    y = y0 + 6
    flavour_started = False
    for line, flavour in lines:
        if flavour and not flavour_started:
            y += 4
            flavour_started = True
        draw_text(draw, (x0 + 8, y), line, face, (96, 90, 84) if flavour else colours.ink)
        y += step


def _pt_box(draw: ImageDraw.ImageDraw, words: str, colours: Frame) -> None:
    draw.rounded_rectangle(PT_BOX, radius=6, fill=colours.bar,
                           outline=shade(colours.frame, -0.5), width=2)
    x0, y0, x1, y1 = PT_BOX
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), words, font(22), colours.ink, anchor="mm")


@lru_cache(maxsize=32)
def _face(name: str, edition: str) -> Image.Image:
    """The set's card ``name`` in ``edition``, drawn once (do not modify it)."""
    return draw_face(card(name), edition)


def card_image(name: str, *, edition: str = "unlimited") -> Image.Image:
    """Card ``name`` of the set at full size (:data:`CARD_W` × :data:`CARD_H`, RGBA,
    transparent corners), a copy the caller may change. :class:`KeyError` for a card
    the set does not have, :class:`ValueError` for an edition other than ``unlimited``
    (white border) or ``limited`` (black border)."""
    _edition(edition)
    return _face(name, edition).copy()


@lru_cache(maxsize=64)
def render_card(name: str, *, edition: str = "unlimited") -> bytes:
    """PNG of card ``name`` (see :func:`card_image`)."""
    _edition(edition)
    return png(_face(name, edition), max_side=None)


# --- a hand --------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _dimmed(name: str) -> Image.Image:
    """A card not castable now: its face a little darker (do not modify it)."""
    face = _face(name, "unlimited")
    dark = Image.new("RGBA", face.size, (*BG, 255))
    dimmed = Image.blend(face, dark, 0.35)
    dimmed.putalpha(face.getchannel("A"))
    return dimmed


@lru_cache(maxsize=8)
def _tick(size: int) -> Image.Image:
    """A green disc with a white tick: this card can be cast now."""

    def shape(draw: ImageDraw.ImageDraw, big: int) -> None:
        draw.ellipse((0, 0, big - 1, big - 1), fill=PLAYABLE)
        w = max(2, big // 9)
        draw.line([(big * 0.26, big * 0.52), (big * 0.43, big * 0.7), (big * 0.75, big * 0.32)],
                  fill=(255, 255, 255), width=w, joint="curve")

    return supersampled(size, shape)


def hand_layout(count: int) -> list[tuple[int, int]]:
    """Where each of ``count`` cards of a hand lies (its top-left corner): columns of
    at most :data:`HAND_COLUMN` cards, each card :data:`HAND_DX` right of and
    :data:`HAND_DY` below the one before.

    >>> hand_layout(3)
    [(40, 34), (58, 92), (76, 150)]
    """
    spots = []
    for k in range(count):
        column, row = divmod(k, HAND_COLUMN)
        left = HAND_GUTTER + column * (CARD_W + (HAND_COLUMN - 1) * HAND_DX + HAND_GUTTER)
        spots.append((left + row * HAND_DX, HAND_TITLE + row * HAND_DY))
    return spots


def draw_hand(hand: Sequence[str], playable: Collection[str] = ()) -> Image.Image:
    """The picture :func:`render_hand` sends."""
    if not hand:
        image = Image.new("RGB", (300, 64), BG)
        draw_text(ImageDraw.Draw(image), (150, 32), "Your hand is empty.", font(18), DIM,
                  anchor="mm")
        return image
    spots = hand_layout(len(hand))
    width = max(x for x, _ in spots) + CARD_W + PAD
    height = max(y for _, y in spots) + CARD_H + PAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    castable = sum(1 for name in hand if name in playable)
    title = f"Your hand: {len(hand)} card{'s' if len(hand) != 1 else ''} · {castable} castable"
    draw_text(draw, (PAD, HAND_TITLE / 2), title, font(18), INK, anchor="lm")
    for name, (x, y) in zip(hand, spots, strict=True):
        if name in playable:
            draw.rounded_rectangle((x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3), radius=18,
                                   fill=PLAYABLE)
            _paste(image, _face(name, "unlimited"), x, y)
            tick = _tick(26)
            row = (y - HAND_TITLE) // HAND_DY  # the tick goes in the column's gutter
            _paste(image, tick, x - row * HAND_DX - HAND_GUTTER + 7,
                   y + (NAME_BAR[1] + NAME_BAR[3] - tick.height) / 2)
        else:
            _paste(image, _dimmed(name), x, y)
    return image


def render_hand(hand: Sequence[str], playable: Collection[str] = ()) -> bytes:
    """PNG of a hand for its owner's DM: the cards overlapping so every name and cost
    shows; those named in ``playable`` framed in green with a tick at their left, the
    others dimmed. An empty hand is a small picture saying so."""
    return png(draw_hand(hand, playable))


# --- the table: tiles ----------------------------------------------------------------------


def _framed(draw: ImageDraw.ImageDraw, w: int, h: int, frame: Colour, inner: Colour,
            radius: int, rim: int) -> None:
    """A rounded frame ``rim`` pixels wide around an inner panel, from (0, 0): the shape
    of a tile, a tab and a land chip."""
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=frame)
    draw.rounded_rectangle((rim, rim, w - 1 - rim, h - 1 - rim), radius=radius - rim + 1,
                           fill=inner)


@lru_cache(maxsize=128)
def _tile_base(name: str) -> Image.Image:
    """A permanent's tile without its state: frame, name, art and type (do not modify it)."""
    data = card(name)
    colours = FRAMES[_kind_of(data)]
    image = Image.new("RGBA", (TILE_W, TILE_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _framed(draw, TILE_W, TILE_H, colours.frame, colours.bar, radius=7, rim=3)
    name_font = font(14)
    lines = wrap(data.name, name_font, TILE_W - 10)
    if len(lines) > 2:
        lines = [lines[0], fit(" ".join(lines[1:]), name_font, TILE_W - 10)]
    for k, line in enumerate(lines):
        draw_text(draw, (TILE_W / 2, 13 + 15 * k), line, name_font, colours.ink, anchor="mm")
    art = _art_of(data, ART_BOX[2] - ART_BOX[0], ART_BOX[3] - ART_BOX[1])
    box = (5, 36, TILE_W - 5, TILE_ART_BOTTOM)
    image.paste(_crop_to(art, box[2] - box[0], box[3] - box[1]), box[:2])
    if not data.is_creature:
        kind = "aura" if data.enchants else data.type.split()[0]
        draw_text(draw, (TILE_W / 2, 104), kind, font(14), colours.ink, anchor="mm")
    return image


def _crop_to(image: Image.Image, w: int, h: int) -> Image.Image:
    """The middle of ``image`` at ``w``:``h``, scaled to ``w`` × ``h``."""
    scale = max(w / image.width, h / image.height)
    cw, ch = w / scale, h / scale
    left, top = (image.width - cw) / 2, (image.height - ch) / 2
    return image.resize((w, h), Image.Resampling.BILINEAR,
                        box=(left, top, left + cw, top + ch))


@dataclass(slots=True)
class Marks:
    """What the table marks on a tile besides its own state."""

    attack: int | None = None
    """The number of the attacking unit it is in."""
    block: int | None = None
    """The number of the attacking unit it blocks."""
    targets: list[int] = field(default_factory=list)
    """The stack positions (1 = top) of the spells and abilities targeting it."""


def _pill(draw: ImageDraw.ImageDraw, x: float, y: float, words: str, fill: Colour,
          size: int = 13, ink: Colour = INK) -> float:
    """A small rounded label from (x, y) (its top left); returns its width."""
    face = font(size)
    w = length(words, face) + 8
    draw.rounded_rectangle((x, y, x + w, y + size + 4), radius=(size + 4) // 2, fill=fill)
    draw_text(draw, (x + w / 2, y + (size + 4) / 2), words, face, ink, anchor="mm")
    return w


def _tile(entry: dict[str, Any], marks: Marks) -> Image.Image:
    """A permanent's tile as it is now: power/toughness, damage, shields, sickness and
    the table's marks; turned 90° clockwise when tapped."""
    image = _tile_base(entry["name"]).copy()
    draw = ImageDraw.Draw(image)
    data = card(entry["name"])
    if "power" in entry:
        _tile_stats(draw, entry, data)
    y = 40.0
    for words, fill, on in ((f"{entry['damage']} dmg", DAMAGE, entry["damage"]),
                            (f"regen {entry['shields']}", SHIELD, entry["shields"]),
                            ("sick", SICK, entry["sick"] and "power" in entry)):
        if on:
            _pill(draw, 7, y, words, fill)
            y += 19
    outline = ATTACK if marks.attack is not None else BLOCK if marks.block is not None else None
    if outline is not None:
        # Orange and cyan, and a word: the frames of red and blue cards must not pass for them.
        draw.rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=7, outline=outline, width=5)
        number = marks.attack if marks.attack is not None else marks.block
        words = f"{'ATK' if marks.attack is not None else 'BLK'} {number}"
        w = length(words, font(13)) + 8
        _pill(draw, TILE_W - 6 - w, 40, words, outline, ink=(16, 16, 16))
    for k, position in enumerate(marks.targets):
        _pill(draw, TILE_W - 30, 62 + 19 * k, f"T{position}", TARGET)
    if entry["tapped"]:
        image = image.transpose(Image.Transpose.ROTATE_270)
    return image


def _tile_stats(draw: ImageDraw.ImageDraw, entry: dict[str, Any], data: CardDef) -> None:
    """Keywords (short) and power/toughness as they are now, green when above the printed
    numbers and red when below."""
    power, toughness = entry["power"], entry["toughness"]
    base = (data.power or 0) + (data.toughness or 0)
    now = power + toughness
    ink = (20, 110, 40) if now > base else (170, 30, 30) if now < base else (20, 20, 20)
    pt = f"{power}/{toughness}"
    face = font(18)
    w = length(pt, face) + 10
    draw.rounded_rectangle((TILE_W - 6 - w, TILE_H - 28, TILE_W - 6, TILE_H - 6), radius=5,
                           fill=(250, 250, 250), outline=(40, 40, 40), width=1)
    draw_text(draw, (TILE_W - 6 - w / 2, TILE_H - 17), pt, face, ink, anchor="mm")
    words = " ".join(_SHORT_KEYWORDS.get(k, keyword_words(k)) for k in entry["keywords"])
    if words:  # one line between the art and power/toughness
        face = font(12)
        draw_text(draw, (6, (TILE_ART_BOTTOM + TILE_H - 28) / 2), fit(words, face, TILE_W - 12),
                  face, (30, 30, 30), anchor="lm")


_SHORT_KEYWORDS = {"flying": "fly", "first strike": "1st", "trample": "trample",
                   "banding": "band", "protection:W": "pro-W", "protection:U": "pro-U",
                   "protection:B": "pro-B", "protection:R": "pro-R", "protection:G": "pro-G"}
"""Keywords as a tile says them (landwalk in full: ``islandwalk``)."""


def _tab(name: str, controller: int | None, names: Sequence[str], width: int) -> Image.Image:
    """An aura's tab under what it enchants: its colour and name (and its controller,
    when that is not the enchanted permanent's)."""
    data = card(name)
    colours = FRAMES[_kind_of(data)]
    image = Image.new("RGBA", (width, TAB_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _framed(draw, width, TAB_H, colours.frame, colours.bar, radius=5, rim=2)
    words = name if controller is None else f"{name} ({seat_name(names, controller)})"
    draw_text(draw, (6, TAB_H / 2), fit(words, font(13), width - 10), font(13), colours.ink,
              anchor="lm")
    return image


@dataclass(slots=True)
class Slot:
    """A permanent and the auras under it, laid out on a band."""

    entry: dict[str, Any]
    auras: list[dict[str, Any]]
    image: Image.Image | None = None
    """The slot drawn, kept while one table is drawn (it may be laid out at several
    widths)."""

    def render(self, marks: dict[int, Marks], names: Sequence[str]) -> Image.Image:
        """The tile with its aura tabs under it."""
        if self.image is None:
            self.image = self._draw(marks, names)
        return self.image

    def _draw(self, marks: dict[int, Marks], names: Sequence[str]) -> Image.Image:
        tile = _tile(self.entry, marks.get(self.entry["id"], Marks()))
        if not self.auras:
            return tile
        image = Image.new("RGBA", (tile.width, tile.height + TAB_H * len(self.auras)),
                          (0, 0, 0, 0))
        image.alpha_composite(tile, (0, 0))
        for k, aura in enumerate(self.auras):
            other = aura["controller"] if aura["controller"] != self.entry["controller"] else None
            image.alpha_composite(_tab(aura["name"], other, names, tile.width),
                                  (0, tile.height + TAB_H * k))
        return image


# --- the table: bands ----------------------------------------------------------------------


def _host(entry: dict[str, Any], by_id: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """What an aura is drawn under: the permanent at the end of its chain of
    attachments (an aura on an aura goes under the first one's host)."""
    seen = {entry["id"]}
    while entry["attached"] is not None and entry["attached"] in by_id \
            and entry["attached"] not in seen:
        entry = by_id[entry["attached"]]
        seen.add(entry["id"])
    return entry


def _slots(view: DuelView) -> dict[int, Slot]:
    """Every permanent not drawn under another, by id, each with its auras."""
    by_id = {e["id"]: e for e in view.battlefield}
    slots: dict[int, Slot] = {}
    auras: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for entry in view.battlefield:
        host = _host(entry, by_id)
        if host is entry:
            slots[entry["id"]] = Slot(entry, [])
        else:
            auras.append((entry, host))
    for aura, host in auras:
        slots[host["id"]].auras.append(aura)
    return slots


def _order(entry: dict[str, Any]) -> int:
    """Creatures first, then artifacts, then enchantments."""
    if "power" in entry:
        return 0
    return 1 if "artifact" in entry["type"] else 2


@dataclass(slots=True)
class Chip:
    """Lands shown together: the same name, no aura on them."""

    name: str
    count: int
    tapped: int
    auras: list[dict[str, Any]]


def _chips(slots: Iterable[Slot]) -> list[Chip]:
    """A seat's lands grouped by name (an enchanted land on its own, with its auras)."""
    chips: dict[str, Chip] = {}
    alone: list[Chip] = []
    for slot in slots:
        entry = slot.entry
        if slot.auras:
            alone.append(Chip(entry["name"], 1, int(entry["tapped"]), slot.auras))
            continue
        chip = chips.setdefault(entry["name"], Chip(entry["name"], 0, 0, []))
        chip.count += 1
        chip.tapped += int(entry["tapped"])
    return [*chips.values(), *alone]


def _chip(chip: Chip, names: Sequence[str], controller: int) -> Image.Image:
    """A land chip: the name and count, the lands as little cards (tapped ones lying
    down) and how many are tapped; auras as tabs under it."""
    data = card(chip.name)
    colours = FRAMES["land"]
    fill = MANA[data.produces[0]][0] if data.produces else colours.bar
    title = chip.name + (f" x{chip.count}" if chip.count > 1 else "")
    status = f"{chip.tapped} tapped" if chip.tapped else "untapped"
    shown = min(chip.count, 6)
    lying = min(chip.tapped, shown)
    icons = 12 * lying + 9 * (shown - lying)
    width = round(max(length(title, font(14)), icons + 4 + length(status, font(12))) + 22)
    height = CHIP_H + TAB_H * len(chip.auras)
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _framed(draw, width, CHIP_H, colours.frame, shade(fill, 0.55), radius=8, rim=3)
    draw_text(draw, (8, 12), title, font(14), colours.ink, anchor="lm")
    x = 8.0
    for k in range(shown):
        w, h = (10, 7) if k < lying else (7, 10)  # a tapped land lies on its side
        draw.rectangle((x, 28 - h / 2, x + w - 1, 28 + h / 2), fill=shade(fill, -0.3))
        x += w + 2
    draw_text(draw, (x + 4, 28), status, font(12), (60, 50, 40), anchor="lm")
    for k, aura in enumerate(chip.auras):
        other = aura["controller"] if aura["controller"] != controller else None
        image.alpha_composite(_tab(aura["name"], other, names, width), (0, CHIP_H + TAB_H * k))
    return image


def _flow(pieces: Sequence[Image.Image], width: int) -> tuple[list[tuple[int, int]], int]:
    """Where pieces go, left to right in rows ``width`` wide (their tops aligned), and the
    total height."""
    spots: list[tuple[int, int]] = []
    x = y = row_h = 0
    for piece in pieces:
        if x and x + piece.width > width:
            x, y, row_h = 0, y + row_h + GAP, 0
        spots.append((x, y))
        x += piece.width + GAP
        row_h = max(row_h, piece.height)
    return spots, (y + row_h if pieces else 0)


@dataclass(slots=True)
class Band:
    """A seat's band drawn, and where each of its tiles is on it."""

    image: Image.Image
    boxes: dict[int, tuple[int, int, int, int]]




def _tag(draw: ImageDraw.ImageDraw, x: float, cy: float, words: str, fill: Colour,
         ink: Colour = INK) -> float:
    face = font(14)
    w = length(words, face) + 16
    draw.rounded_rectangle((x, cy - 11, x + w, cy + 11), radius=11, fill=fill)
    draw_text(draw, (x + w / 2, cy), words, face, ink, anchor="mm")
    return w


def _seat_head(draw: ImageDraw.ImageDraw, view: DuelView, seat: int,
               names: Sequence[str], band_w: int) -> None:
    """Name and marks on the first line; life and public counts on the second."""
    player = view.players[seat]
    lost = bool(player["lost"])
    tags: list[tuple[str, Colour]] = []
    if lost:
        tags.append(("OUT", OUT))
    else:
        if seat == view.active:
            tags.append(("TURN", GOLD))
        if seat == view.deciding:
            tags.append(("TO ACT", ACT))
    name_font = font(18)
    tags_w = sum(length(w, font(14)) + 22 for w, _ in tags)
    name = fit(f"{seat + 1}. {seat_name(names, seat)}", name_font, band_w - 2 * INSET - tags_w)
    draw_text(draw, (INSET, INSET + 10), name, name_font, DIM if lost else INK, anchor="lm")
    x = INSET + length(name, name_font) + 10
    for words, fill in tags:
        x += _tag(draw, x, INSET + 10, words, fill, BG if fill == GOLD else INK) + 6
    _heart(draw, INSET, INSET + 30)
    life_font = font(20)
    draw_text(draw, (INSET + 22, INSET + 40), str(player["life"]), life_font,
              DIM if lost else INK, anchor="lm")
    pool = "".join(c * n for c, n in sorted(player["pool"].items()) if n)
    counts = (f"library {player['library']} · hand {player['hand']} · "
              f"graveyard {len(player['graveyard'])}" + (f" · pool {pool}" if pool else ""))
    left = INSET + 30 + length(str(player["life"]), life_font)
    draw_text(draw, (left, INSET + 40), fit(counts, font(15), band_w - INSET - left), font(15),
              DIM, anchor="lm")


def _heart(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A small heart for life (the font has no ♥)."""
    r = 4.5
    draw.ellipse((x, y + 1, x + 2 * r, y + 1 + 2 * r), fill=LIFE)
    draw.ellipse((x + 2 * r - 1, y + 1, x + 4 * r - 1, y + 1 + 2 * r), fill=LIFE)
    draw.polygon([(x + 0.3, y + r + 3), (x + 4 * r - 1.3, y + r + 3), (x + 2 * r - 0.5, y + 18)],
                 fill=LIFE)


def _seat_band(view: DuelView, seat: int, names: Sequence[str], slots: dict[int, Slot],
               marks: dict[int, Marks], band_w: int) -> Band:
    """A seat's band: its head, its land chips, then its other permanents as tiles."""
    own = [s for s in slots.values() if s.entry["controller"] == seat]
    lands = [s for s in own if s.entry["type"] == "land"]
    others = sorted((s for s in own if s.entry["type"] != "land"),
                    key=lambda s: (_order(s.entry), _combat_order(s.entry["id"], marks)))
    inner = band_w - 2 * INSET
    chips = [_chip(c, names, seat) for c in _chips(lands)]
    chip_spots, chips_h = _flow(chips, inner)
    tiles = [s.render(marks, names) for s in others]
    tile_spots, tiles_h = _flow(tiles, inner)
    top_chips = HEAD_H + INSET
    top_tiles = top_chips + chips_h + (GAP if chips else 0)
    empty = not chips and not tiles
    height = top_tiles + tiles_h + INSET + (18 if empty else 0)
    lost = bool(view.players[seat]["lost"])
    image = Image.new("RGB", (band_w, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, band_w - 1, height - 1), radius=10,
                           fill=OUT_BAND if lost else BAND,
                           outline=ACT if seat == view.deciding and not lost else None, width=2)
    _seat_head(draw, view, seat, names, band_w)
    for chip, (x, y) in zip(chips, chip_spots, strict=True):
        image.paste(chip, (INSET + x, top_chips + y), chip)
    boxes: dict[int, tuple[int, int, int, int]] = {}
    for slot, tile, (x, y) in zip(others, tiles, tile_spots, strict=True):
        image.paste(tile, (INSET + x, top_tiles + y), tile)
        w, h = (TILE_H, TILE_W) if slot.entry["tapped"] else (TILE_W, TILE_H)
        boxes[slot.entry["id"]] = (INSET + x, top_tiles + y, INSET + x + w, top_tiles + y + h)
    if empty:
        draw_text(draw, (INSET, top_tiles + 6), "nothing in play", font(14), DIM, anchor="lm")
    if lost:
        image = Image.blend(image, Image.new("RGB", image.size, BG), 0.45)
    return Band(image, boxes)


def _combat_order(pid: int, marks: dict[int, Marks]) -> int:
    """Attackers and blockers in the order of their pairing numbers, so lines between
    them cross little."""
    mark = marks.get(pid)
    if mark is None:
        return 0
    number = mark.attack if mark.attack is not None else mark.block
    return number or 0


def _marks(view: DuelView) -> dict[int, Marks]:
    """Each permanent's table marks: the attacking unit it is in or blocks (numbered from
    1, a band counting once) and the stack positions targeting it."""
    marks: dict[int, Marks] = {}
    combat = view.combat
    if combat is not None:
        units = _units(combat)
        for number, members in enumerate(units, start=1):
            for pid in members:
                marks.setdefault(pid, Marks()).attack = number
            for blocker in combat["blocks"].get(members[0], ()):
                marks.setdefault(blocker, Marks()).block = number
    for position, item in enumerate(reversed(view.stack), start=1):
        target = item["target"]
        if target and target.isdigit():
            marks.setdefault(int(target), Marks()).targets.append(position)
    return marks


def _units(combat: dict[str, Any]) -> list[tuple[int, ...]]:
    """The attacking units: the band (if any, its members still attacking), then each
    other attacker."""
    attackers = list(combat["attackers"])
    band = tuple(m for m in combat["band"] if m in attackers)
    return ([band] if band else []) + [(a,) for a in attackers if a not in band]


# --- the table: header, stack, combat lines ------------------------------------------------


def _header(view: DuelView, names: Sequence[str], band_w: int) -> Image.Image:
    """Title, turn, active player and phase; who is deciding what; the attack's stage."""
    image = Image.new("RGB", (band_w, 56), BG)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (0, 14), "ARCANE DUEL", font(22), GOLD, anchor="lm")
    x = length("ARCANE DUEL", font(22)) + 14
    info = f"turn {view.turn} · {seat_name(names, view.active)}'s {view.phase} phase"
    draw_text(draw, (x, 15), fit(info, font(16), band_w - x), font(16), INK, anchor="lm")
    if view.deciding is not None:
        status = f"waiting for {seat_name(names, view.deciding)}: {asking_words(view)}"
    else:
        status = "the duel is over"
    if view.combat is not None:
        status += f" · attack: {view.combat['stage']}"
    draw_text(draw, (0, 42), fit(status, font(15), band_w), font(15), DIM, anchor="lm")
    return image


def _target_words(target: str | None, view: DuelView, names: Sequence[str]) -> str:
    if not target:
        return ""
    if target.startswith("p") and target[1:].isdigit():
        return seat_name(names, int(target[1:]) - 1)
    if target.isdigit():
        return view.names.get(int(target), target)
    return target


def _stack_band(view: DuelView, names: Sequence[str], band_w: int) -> Image.Image:
    """The stack, top first: position, name, controller, X, target."""
    row = 24
    height = 2 * INSET + 24 + row * len(view.stack)
    image = Image.new("RGB", (band_w, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, band_w - 1, height - 1), radius=10, fill=STACK_BAND)
    draw_text(draw, (INSET, INSET + 10), "Stack (top first)", font(16), INK, anchor="lm")
    for k, item in enumerate(reversed(view.stack)):
        y = INSET + 24 + row * k + row / 2
        _tag(draw, INSET, y, f"T{k + 1}", TARGET)
        data = card(item["name"])
        fill = FRAMES[_kind_of(data)].frame
        draw.ellipse((INSET + 44, y - 6, INSET + 56, y + 6), fill=fill, outline=INK)
        words = f"{item['name']} by {seat_name(names, item['controller'])}"
        if item["x"]:
            words += f", X={item['x']}"
        if item["interrupt"]:
            words += " (interrupt)"
        target = _target_words(item["target"], view, names)
        if target:
            words += f" → {target}"
        draw_text(draw, (INSET + 64, y), fit(words, font(15), band_w - INSET - 70), font(15),
                  INK, anchor="lm")
    return image


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _combat_lines(draw: ImageDraw.ImageDraw, view: DuelView,
                  boxes: dict[int, tuple[int, int, int, int]]) -> None:
    """A line from each blocker to the attacker it blocks, from edge to edge."""
    combat = view.combat
    if combat is None:
        return
    for members in _units(combat):
        for blocker in combat["blocks"].get(members[0], ()):
            for attacker in members:
                if attacker in boxes and blocker in boxes:
                    start, end = _edge(boxes[attacker], boxes[blocker])
                    draw.line((start, end), fill=(255, 170, 60), width=3)
                    r = 4
                    draw.ellipse((end[0] - r, end[1] - r, end[0] + r, end[1] + r),
                                 fill=(255, 170, 60))


def _edge(a: tuple[int, int, int, int], b: tuple[int, int, int, int]
          ) -> tuple[tuple[float, float], tuple[float, float]]:
    """Points on the facing edges of boxes ``a`` and ``b`` (top/bottom when one is above
    the other, else the sides)."""
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    if a[3] <= b[1]:
        return (ax, a[3]), (bx, b[1])
    if b[3] <= a[1]:
        return (ax, a[1]), (bx, b[3])
    if ax < bx:
        return (a[2], ay), (b[0], by)
    return (a[0], ay), (b[2], by)


def draw_battlefield(view: DuelView, names: Sequence[str]) -> Image.Image:
    """The picture :func:`render_battlefield` sends: :data:`WIDTH` wide, or the first of
    :data:`WIDER` at which it is no taller than MAX_SIDE (the widest if none is)."""
    slots = _slots(view)
    marks = _marks(view)
    for width in (WIDTH, *WIDER):
        parts = _parts(view, names, slots, marks, width - 2 * PAD)
        height = PAD + sum(p.height for p, _ in parts) + GAP * (len(parts) - 1) + PAD
        if height <= MAX_SIDE:
            break
    image = Image.new("RGB", (width, height), BG)
    boxes: dict[int, tuple[int, int, int, int]] = {}
    y = PAD
    for part, where in parts:
        image.paste(part, (PAD, y))
        boxes.update({pid: (b[0] + PAD, b[1] + y, b[2] + PAD, b[3] + y)
                      for pid, b in where.items()})
        y += part.height + GAP
    _combat_lines(ImageDraw.Draw(image), view, boxes)
    return image


def _parts(view: DuelView, names: Sequence[str], slots: dict[int, Slot],
           marks: dict[int, Marks], band_w: int
           ) -> list[tuple[Image.Image, dict[int, tuple[int, int, int, int]]]]:
    """The table's bands, top to bottom, each with where its tiles are on it."""
    parts: list[tuple[Image.Image, dict[int, tuple[int, int, int, int]]]] = [
        (_header(view, names, band_w), {})]
    if view.stack:
        parts.append((_stack_band(view, names, band_w), {}))
    for seat in range(len(view.players)):
        band = _seat_band(view, seat, names, slots, marks, band_w)
        parts.append((band.image, band.boxes))
    return parts


def render_battlefield(view: DuelView, names: Sequence[str]) -> bytes:
    """PNG of the public table of ``view`` (a seat's or a spectator's: only public fields
    are read, so both give the same picture); ``names`` are the seats' display names.
    :data:`WIDTH` wide (wider only for a table that would not fit otherwise), at most
    :data:`~bot.render.common.MAX_SIDE` on its long side (a table too busy even then is
    scaled down to fit)."""
    return png(draw_battlefield(view, names), MAX_SIDE)
