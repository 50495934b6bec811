"""Arcane Duel's card: one card's face, as a PNG.

**A card** (:func:`card_image`, :data:`CARD_W` × :data:`CARD_H`) is drawn from its data
alone: the edition's border (white for ``unlimited``, black for ``limited``), a frame in
the card's colour (:func:`~bot.games.duel.frames.frame_kind`: one of the five colours,
grey steel for an artifact, brown earth for a land, gold for a cost of several colours),
the name with the cost as mana circles (a coloured disc with its letter, a grey disc with
the generic number or X), the art, the type line, the rules text written from the card's
effects (:mod:`bot.duel.card_words`) with the flavour text when it fits, and
power/toughness in a box for a creature; the words in the locale being spoken
(``bot.i18n.speaking``), a longer name drawn smaller before it is cut short. Rarity
is never printed. The art is generated (:mod:`bot.games.duel.art`): shapes in the card's
colours, placed by a random generator seeded from a hash of the card's name, so a card
always has the same picture and no two cards share one; what it shows follows the card's
data (a creature as what it is, a person, a beast, a bird, a wall, a plant..., with wings
if it flies; a bolt for an instant; rings for an enchantment; a cog for an artifact; the
landscape of a basic land).

The faces are cached per locale (:func:`card_face`): a hand, a pack and a deck show the
same ones.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.duel import card_words as words
from bot.games.duel.art import shade
from bot.games.duel.frames import FRAMES, Frame, art_of, crop_to, kind_of, mana_symbol, paste
from bot.i18n import current
from bot.pictures.common import Colour, Font, ascii_text, draw_text, fit, font, png, wrap
from rules.duel.cards import CardDef, card

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
NAME_FONTS = (20, 18, 16)
"""Name sizes tried in turn until the name fits its bar (a language's longer name is
drawn smaller before it is cut short)."""


# --- editions ------------------------------------------------------------------------------

EDITION_BORDER: dict[str, Colour] = {"unlimited": (246, 244, 238), "limited": (16, 16, 18)}
"""The border of each edition: white for unlimited, black for limited."""


def _edition(edition: str) -> Colour:
    if edition not in EDITION_BORDER:
        raise ValueError(f"no edition {edition!r} (unlimited or limited)")
    return EDITION_BORDER[edition]


# --- the cost ------------------------------------------------------------------------------


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


# --- a card --------------------------------------------------------------------------------


def _text_room(data: CardDef, text_box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The width and height rules text may take in ``text_box`` (clear of the
    power/toughness box on a creature)."""
    x0, y0, x1, y1 = text_box
    bottom = (PT_BOX[1] - 2) if data.is_creature else y1 - 6
    return x1 - x0 - 16, bottom - y0 - 8


def _rules_lines(data: CardDef, face: Font, width: float) -> list[str]:
    return [line for part in words.rules_lines(data) if part
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
    quoted = ascii_text(f"“{words.flavour(data)}”") if data.flavor else ""
    for size in TEXT_FONTS:
        face = font(size)
        step = size + 3
        lines = [(line, False) for line in _rules_lines(data, face, width)]
        if len(lines) * step > height and size != TEXT_FONTS[-1]:
            continue
        extra = [(line, True) for line in wrap(quoted, face, width)] if quoted else []
        if (len(lines) + len(extra)) * step + (4 if lines else 0) <= height:
            lines += extra
        return face, lines[: max(1, int(height // step))]
    raise AssertionError("unreachable")  # pragma: no cover - the last size always returns


def draw_face(data: CardDef, edition: str = "unlimited") -> Image.Image:
    """Card ``data`` drawn whole, RGBA :data:`CARD_W` × :data:`CARD_H` with rounded,
    transparent corners (uncached: :func:`card_image` keeps the set's faces).
    :class:`ValueError` for an unknown edition."""
    border = _edition(edition)
    colours = FRAMES[kind_of(data)]
    image = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=16, fill=border)
    draw.rounded_rectangle((BORDER, BORDER, CARD_W - 1 - BORDER, CARD_H - 1 - BORDER),
                           radius=8, fill=colours.frame)
    _name_bar(image, draw, data, colours)
    art_box, type_bar, text_box = face_boxes(data)
    x0, y0, x1, y1 = art_box
    art = art_of(data, ART_BOX[2] - ART_BOX[0], ART_BOX[3] - ART_BOX[1])
    image.paste(art if art_box == ART_BOX else crop_to(art, x1 - x0, y1 - y0), (x0, y0))
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
        paste(image, mana_symbol(symbol, SYMBOL), x, (y0 + y1 - SYMBOL) / 2)
        x += SYMBOL + 2
    room = x1 - x0 - 16 - cost_w
    called = words.name(data)
    name_font = next((font(size) for size in NAME_FONTS
                      if not fit(called, font(size), room).endswith("…")), font(NAME_FONTS[-1]))
    draw_text(draw, (x0 + 8, (y0 + y1) / 2), fit(called, name_font, room), name_font,
              colours.ink, anchor="lm")


def _type_bar(image: Image.Image, draw: ImageDraw.ImageDraw, data: CardDef,
              colours: Frame, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=6, fill=colours.bar,
                           outline=shade(colours.frame, -0.4), width=1)
    made = list(data.produces)  # a land shows the mana it makes where a cost would be
    size = 20
    x = x1 - 6 - len(made) * (size + 2)
    for colour in made:
        paste(image, mana_symbol(colour, size), x, (y0 + y1 - size) / 2)
        x += size + 2
    draw_text(draw, (x0 + 8, (y0 + y1) / 2), fit(words.type_line(data), font(16), x - x0 - 12),
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


def card_face(name: str, edition: str) -> Image.Image:
    """The set's card ``name`` in ``edition`` and the locale spoken, drawn once (do not
    modify it: :func:`card_image` gives a copy to change)."""
    return _face(name, edition, current())


@lru_cache(maxsize=32)
def _face(name: str, edition: str, locale: str) -> Image.Image:
    return draw_face(card(name), edition)


def card_image(name: str, *, edition: str = "unlimited") -> Image.Image:
    """Card ``name`` of the set at full size (:data:`CARD_W` × :data:`CARD_H`, RGBA,
    transparent corners), a copy the caller may change. :class:`KeyError` for a card
    the set does not have, :class:`ValueError` for an edition other than ``unlimited``
    (white border) or ``limited`` (black border)."""
    _edition(edition)
    return card_face(name, edition).copy()


def render_card(name: str, *, edition: str = "unlimited") -> bytes:
    """PNG of card ``name`` in the locale spoken (see :func:`card_image`)."""
    _edition(edition)
    return _png(name, edition, current())


@lru_cache(maxsize=64)
def _png(name: str, edition: str, locale: str) -> bytes:
    return png(_face(name, edition, locale), max_side=None)
