"""Arcane Duel's collection pictures: a pack just opened and a deck, as PNGs.

**A pack** (:func:`render_pack`) is its cards in a grid of :data:`PACK_COLUMNS` columns
(a pack of 15: five by three, 1185 × 1115 px), rarest first
(:func:`rules.duel.packs.rarest_first`: rares, uncommons, commons, each by name). Each
card is the card picture itself (:func:`bot.games.duel.card.card_image`) at
:data:`PACK_SCALE`, :data:`PACK_CARD_W` × :data:`PACK_CARD_H`, with its edition's border
(black for a limited copy), nothing drawn over it: a phone shows the whole pack small
and, opened and zoomed, each card at the picture's own size, where its rules text is at
least 12 px (a card's rules are never under 16 px: :data:`bot.games.duel.card.TEXT_FONTS`)
and its name 15. (Cards at half size, three to a row, kept the names legible unzoomed but
the rules at 8.5 px, unreadable however zoomed.) Under each card, its rarity as a mark
and a word (R, U or C on a gold, blue or grey disc, and "Rare", "Uncommon" or "Common":
the spec forbids rarity on the card face, not beside it) and, for a limited copy with a
serial, a gold ribbon saying it, "#37 of 500".

**A deck** (:func:`render_deck`) is a header (the deck's title, how many cards and how
many different ones), then one section per group — creatures (artifact creatures too),
other spells, lands — each card once as its name bar (cut from its card picture: the
frame's colour, the name and the cost) beside a "×N" badge, by mana value then name
(lands by name, basic lands last). Sections run in as few columns as keep the picture
within :data:`~bot.pictures.common.MAX_SIDE` (a 40-card starter takes two, 60 different
cards four), reading down each column.

Every text goes through :func:`bot.pictures.common.draw_text` (the built-in font only), so
a title with emoji or right-to-left script is drawn with stand-ins. The pack's cards
and the name bars are cached (bounded: some 15 MB full), over the cache of the card
faces themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.duel.card import CARD_H, CARD_W, NAME_BAR, card_image
from bot.games.duel.frames import BG, DIM, GOLD, INK, PAD
from bot.i18n import Phrase, current, say, tr, trn
from bot.pictures.common import MAX_SIDE, Colour, draw_text, fit, font, length, png
from rules.duel.cards import CardDef, card
from rules.duel.packs import rarest_first

Copy = tuple[str, str, int | None, int | None]
"""A copy as a pack gives it: card name, edition (``unlimited`` or ``limited``), serial
and print run size (both ``None`` for an unlimited copy)."""

# --- sizes ---------------------------------------------------------------------------------

PACK_SCALE = 0.75
"""A card's size in a pack picture: the smallest at which its 16 px rules text is still
12 px."""
PACK_CARD_W, PACK_CARD_H = round(CARD_W * PACK_SCALE), round(CARD_H * PACK_SCALE)
PACK_COLUMNS = 5
"""Columns of a pack (fewer only for a smaller pack): 15 cards make three rows, a picture
about as wide as high, which Discord shows whole."""
PACK_GAP_X = 10
PACK_GAP_Y = 12
PACK_HEAD = 36
"""Height of a pack picture's header line."""
CAPTION_H = 30
"""Room under a card for its rarity and its serial ribbon."""
CAPTION_FONT = 15
MARK = 18
"""Diameter of the rarity mark."""
RIBBON_H = 22
RIBBON_NOTCH = 6
"""How deep the swallowtail cut into the ribbon's right end is."""

STRIP_BOX = (NAME_BAR[0] - 4, NAME_BAR[1] - 4, NAME_BAR[2] + 4, NAME_BAR[3] + 4)
"""What of a full card a deck shows: the name bar (name and cost) with a rim of the
frame's colour (inside the edition's border, which a deck's card has none of)."""
STRIP_W, STRIP_H = STRIP_BOX[2] - STRIP_BOX[0], STRIP_BOX[3] - STRIP_BOX[1]
BADGE_W = 50
"""The "×N" badge left of a name bar (wide enough for ×250, the most a deck holds)."""
ROW_GAP = 4
COLUMN_GAP = 12
DECK_ROW_W = BADGE_W + 4 + STRIP_W
DECK_HEAD = 62
"""Height of a deck picture's header: the title, then the counts."""
SECTION_HEAD = 30
DECK_MOST_COLUMNS = 8
"""Most columns tried for a deck; beyond four the picture is scaled down to fit."""
MAX_TITLE = 200
"""Characters of a title kept before it is fitted to the width (:func:`fit` trims one
character at a time, so a 10,000-character title would be slow)."""

# --- colours -------------------------------------------------------------------------------

RARITY_MARKS: dict[str, tuple[str, Colour, Colour]] = {
    "rare": ("R", GOLD, (40, 30, 6)),
    "uncommon": ("U", (126, 172, 214), (12, 26, 44)),
    "common": ("C", (150, 152, 160), (24, 24, 28)),
}
"""Letter, disc and letter colour of each rarity's mark (a letter, not only a colour, so
no one needs to tell the discs apart by colour alone)."""
RIBBON = GOLD
RIBBON_FOLD = (156, 112, 20)
RIBBON_INK = (36, 26, 6)
BADGE = (62, 70, 92)
SECTION_INK = (246, 214, 140)

GROUPS = ("Creatures", "Other spells", "Lands")
"""A deck's sections, in the order shown."""
GROUP_WORDS = {"Creatures": Phrase("collections.picture.group.creatures"),
               "Other spells": Phrase("collections.picture.group.spells"),
               "Lands": Phrase("collections.picture.group.lands")}
"""Each section's heading, in the locale spoken."""
RARITY_WORDS = {"rare": Phrase("collections.picture.rarity.rare"),
                "uncommon": Phrase("collections.picture.rarity.uncommon"),
                "common": Phrase("collections.picture.rarity.common")}
"""Each rarity's word beside its mark."""


# --- a pack --------------------------------------------------------------------------------


def _pack_card(name: str, edition: str) -> Image.Image:
    return _pack_card_in(name, edition, current())


@lru_cache(maxsize=64)
def _pack_card_in(name: str, edition: str, locale: str) -> Image.Image:
    """Card ``name`` in ``edition`` at :data:`PACK_SCALE` on the picture's background, RGB
    (do not modify it). Laid on the background first: scaling an RGBA picture down would
    mix the transparent corners' black into the edge."""
    face = card_image(name, edition=edition)
    ground = Image.new("RGB", face.size, BG)
    ground.paste(face, (0, 0), face)
    return ground.resize((PACK_CARD_W, PACK_CARD_H), Image.Resampling.BICUBIC)


def pack_card(name: str, edition: str = "unlimited") -> Image.Image:
    """Card ``name`` in ``edition`` as a pack picture shows it: :data:`PACK_CARD_W` ×
    :data:`PACK_CARD_H`, RGB on the picture's background (a copy). :class:`KeyError` for
    a card the set does not have, :class:`ValueError` for an unknown edition."""
    return _pack_card(name, edition).copy()


def pack_order(copies: Sequence[Copy]) -> list[Copy]:
    """``copies`` in the order a pack is shown: rarest first, then by name (the same order
    as :func:`rules.duel.packs.rarest_first`); two copies of one card keep their order.
    :class:`KeyError` for a card the set does not have.

    >>> [c[0] for c in pack_order([("Ashpeak", "unlimited", None, None),
    ...                            ("Grim Ledger", "limited", 3, 100)])]
    ['Grim Ledger', 'Ashpeak']
    """
    ranked = rarest_first([(name, card(name).rarity, k)
                           for k, (name, *_) in enumerate(copies)])
    return [copies[k] for _, _, k in ranked]


def pack_columns(count: int) -> int:
    """Columns for a pack of ``count`` cards: :data:`PACK_COLUMNS`, fewer only for fewer
    cards.

    >>> pack_columns(15), pack_columns(2), pack_columns(40)
    (5, 2, 5)
    """
    return max(1, min(count, PACK_COLUMNS))


def pack_layout(count: int) -> list[tuple[int, int]]:
    """Where each of ``count`` cards of a pack picture lies (its top-left corner), left to
    right and then down.

    >>> pack_layout(6)[:2], pack_layout(6)[5]
    ([(10, 46), (245, 46)], (10, 403))
    """
    columns = pack_columns(count)
    spots = []
    for k in range(count):
        row, column = divmod(k, columns)
        spots.append((PAD + column * (PACK_CARD_W + PACK_GAP_X),
                      PAD + PACK_HEAD + row * (PACK_CARD_H + CAPTION_H + PACK_GAP_Y)))
    return spots


def serial_words(serial: int, run: int | None) -> str:
    """A limited copy's serial as its ribbon says it.

    >>> serial_words(37, 500), serial_words(8, None)
    ('#37 of 500', '#8')
    """
    return tr("collections.picture.serial_of", serial=serial, run=run) if run is not None \
        else f"#{serial}"


def _ribbon(draw: ImageDraw.ImageDraw, right: float, cy: float, words: str, room: float
            ) -> None:
    """A gold ribbon saying ``words``, its right end (cut in a swallowtail) at ``right``,
    centred on ``cy``, at most ``room`` wide."""
    face = font(CAPTION_FONT)
    words = fit(words, face, room - 16 - RIBBON_NOTCH)
    left = right - length(words, face) - 16 - RIBBON_NOTCH
    top, bottom = cy - RIBBON_H / 2, cy + RIBBON_H / 2
    draw.polygon([(left, top), (right, top), (right - RIBBON_NOTCH, cy), (right, bottom),
                  (left, bottom)], fill=RIBBON)
    draw.line((left, top + 2, right - 2, top + 2), fill=(255, 226, 140), width=1)
    draw.line((left, bottom - 1, right - 1, bottom - 1), fill=RIBBON_FOLD, width=1)
    draw_text(draw, (left + 8, cy + 1), words, face, RIBBON_INK, anchor="lm")


def _mark(draw: ImageDraw.ImageDraw, x: float, cy: float, rarity: str) -> float:
    """The rarity's mark, its letter on a disc of its colour, and its word, left edge at
    ``x``; where the word ends."""
    letter, fill, ink = RARITY_MARKS[rarity]
    draw.ellipse((x, cy - MARK / 2, x + MARK, cy + MARK / 2), fill=fill, outline=(12, 12, 14))
    draw_text(draw, (x + MARK / 2, cy + 1), letter, font(12), ink, anchor="mm")
    word = say(RARITY_WORDS[rarity])
    draw_text(draw, (x + MARK + 5, cy), word, font(CAPTION_FONT), DIM, anchor="lm")
    return x + MARK + 5 + length(word, font(CAPTION_FONT))


def draw_pack(copies: Sequence[Copy]) -> Image.Image:
    """The picture :func:`render_pack` sends."""
    if not copies:
        image = Image.new("RGB", (300, 64), BG)
        draw_text(ImageDraw.Draw(image), (150, 32),
                  fit(tr("collections.picture.pack_empty"), font(18), 280), font(18), DIM,
                  anchor="mm")
        return image
    shown = pack_order(copies)
    spots = pack_layout(len(shown))
    columns = pack_columns(len(shown))
    width = 2 * PAD + columns * PACK_CARD_W + (columns - 1) * PACK_GAP_X
    height = max(y for _, y in spots) + PACK_CARD_H + CAPTION_H + PAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    limited = sum(1 for _, edition, _, _ in shown if edition == "limited")
    count = trn("collections.picture.limited", limited) if limited else ""
    title = trn("collections.picture.pack", len(shown))
    room = width - 2 * PAD - (length(count, font(16)) + 12 if count else 0)
    draw_text(draw, (PAD, PAD + PACK_HEAD / 2 - 4), fit(title, font(20), room), font(20), INK,
              anchor="lm")
    if count:
        draw_text(draw, (width - PAD, PAD + PACK_HEAD / 2 - 4), count, font(16), GOLD,
                  anchor="rm")
    for (name, edition, serial, run), (x, y) in zip(shown, spots, strict=True):
        image.paste(_pack_card(name, edition), (x, y))
        cy = y + PACK_CARD_H + CAPTION_H / 2
        end = _mark(draw, x + 2, cy, card(name).rarity)
        if edition == "limited" and serial is not None:
            _ribbon(draw, x + PACK_CARD_W, cy, serial_words(serial, run),
                    x + PACK_CARD_W - end - 8)
    return image


def render_pack(copies: Sequence[Copy]) -> bytes:
    """PNG of a pack just opened: its cards (``(name, edition, serial, run)`` each,
    ``serial`` and ``run`` ``None`` for an unlimited copy) rarest first in a grid five
    cards wide, each at :data:`PACK_SCALE` with its edition's border, and under it its
    rarity and, for a limited copy, its serial on a ribbon ("#37 of 500"). 15 cards make
    a picture 1185 × 1115; any picture is at most :data:`~bot.pictures.common.MAX_SIDE` on
    its long side. :class:`KeyError` for a card the set does not have,
    :class:`ValueError` for an edition other than ``unlimited`` or ``limited``."""
    return png(draw_pack(copies))


# --- a deck --------------------------------------------------------------------------------


def _strip(name: str) -> Image.Image:
    """Card ``name``'s name bar (name and cost on its frame's colour) in the locale
    spoken, RGB (do not modify it)."""
    return _strip_in(name, current())


@lru_cache(maxsize=128)
def _strip_in(name: str, locale: str) -> Image.Image:
    return card_image(name).crop(STRIP_BOX).convert("RGB")


def group_of(data: CardDef) -> str:
    """Which section of a deck picture a card is in (one of :data:`GROUPS`).

    >>> group_of(card("Stonegear Hulk")), group_of(card("Kindlewhip")), group_of(card("Murkfen"))
    ('Creatures', 'Other spells', 'Lands')
    """
    if data.is_creature:
        return GROUPS[0]
    return GROUPS[2] if data.type == "land" else GROUPS[1]


def deck_sections(cards: Mapping[str, int]) -> list[tuple[str, list[tuple[str, int]]]]:
    """The sections of a deck picture with their cards and counts, in the order shown:
    :data:`GROUPS` that have cards; spells by mana value then name, lands by name with
    basic lands last. Counts below 1 are left out; :class:`KeyError` for a card the set
    does not have.

    >>> deck_sections({"Ashpeak": 17, "Kindlewhip": 4, "Magma Ridgeback": 2, "Grim Ledger": 0})
    [('Creatures', [('Magma Ridgeback', 2)]), ('Other spells', [('Kindlewhip', 4)]), ('Lands', [('Ashpeak', 17)])]
    """  # noqa: E501 (a doctest's expected line is as long as the value)
    grouped: dict[str, list[tuple[tuple[int, int, str], str, int]]] = {g: [] for g in GROUPS}
    for name, count in cards.items():
        data = card(name)
        if count < 1:
            continue
        if data.type == "land":
            key = (int(data.basic is not None), 0, name)
        else:
            key = (0, data.cost_parts.mana_value, name)
        grouped[group_of(data)].append((key, name, count))
    return [(group, [(name, count) for _, name, count in sorted(rows)])
            for group, rows in grouped.items() if rows]


def _deck_size(sections: Sequence[tuple[str, Sequence[object]]], columns: int
               ) -> tuple[int, int]:
    """Width and height of a deck picture with ``sections`` in ``columns`` columns."""
    width = 2 * PAD + columns * DECK_ROW_W + (columns - 1) * COLUMN_GAP
    height = PAD + DECK_HEAD + PAD
    for _, rows in sections:
        height += SECTION_HEAD + -(-len(rows) // columns) * (STRIP_H + ROW_GAP)
    return width, height


def deck_columns(sections: Sequence[tuple[str, Sequence[object]]]) -> int:
    """The fewest columns (up to :data:`DECK_MOST_COLUMNS`) at which a deck picture fits
    in :data:`~bot.pictures.common.MAX_SIDE` both ways; when none does, the one it would be
    scaled down least at."""
    sizes = {c: _deck_size(sections, c) for c in range(1, DECK_MOST_COLUMNS + 1)}
    fitting = [c for c, size in sizes.items() if max(size) <= MAX_SIDE]
    return fitting[0] if fitting else min(sizes, key=lambda c: max(sizes[c]))


def _badge(draw: ImageDraw.ImageDraw, x: float, y: float, count: int) -> None:
    face = font(20)
    draw.rounded_rectangle((x, y, x + BADGE_W - 1, y + STRIP_H - 1), radius=8, fill=BADGE)
    draw_text(draw, (x + BADGE_W / 2, y + STRIP_H / 2), fit(f"×{count}", face, BADGE_W - 6),
              face, INK, anchor="mm")


def draw_deck(cards: Mapping[str, int], title: str) -> Image.Image:
    """The picture :func:`render_deck` sends."""
    sections = deck_sections(cards)
    columns = deck_columns(sections)
    width, height = _deck_size(sections, columns)
    if not sections:
        height += SECTION_HEAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    total = sum(count for _, rows in sections for _, count in rows)
    distinct = sum(len(rows) for _, rows in sections)
    heading = font(24)
    draw_text(draw, (PAD, PAD + 14), fit(title[:MAX_TITLE] or tr("collections.picture.deck"),
                                         heading, width - 2 * PAD), heading, INK, anchor="lm")
    counts = trn("collections.picture.deck_counts", total, distinct=distinct)
    draw_text(draw, (PAD, PAD + 44), fit(counts, font(16), width - 2 * PAD), font(16), DIM,
              anchor="lm")
    y = PAD + DECK_HEAD
    if not sections:
        draw_text(draw, (PAD, y + SECTION_HEAD / 2),
                  fit(tr("collections.picture.no_cards"), font(16), width - 2 * PAD), font(16),
                  DIM, anchor="lm")
    for group, rows in sections:
        words = fit(tr("collections.picture.group", group=GROUP_WORDS[group],
                       cards=sum(count for _, count in rows)), font(18), width - 2 * PAD - 20)
        draw_text(draw, (PAD, y + SECTION_HEAD / 2), words, font(18), SECTION_INK, anchor="lm")
        draw.line((PAD + length(words, font(18)) + 10, y + SECTION_HEAD / 2,
                   width - PAD, y + SECTION_HEAD / 2), fill=(70, 78, 98), width=1)
        y += SECTION_HEAD
        per_column = -(-len(rows) // columns)
        for k, (name, count) in enumerate(rows):  # down each column, as a list is read
            column, row = divmod(k, per_column)
            x = PAD + column * (DECK_ROW_W + COLUMN_GAP)
            top = y + row * (STRIP_H + ROW_GAP)
            _badge(draw, x, top, count)
            image.paste(_strip(name), (x + BADGE_W + 4, top))
        y += per_column * (STRIP_H + ROW_GAP)
    return image


def render_deck(cards: Mapping[str, int], title: str) -> bytes:
    """PNG of a deck: a header with ``title`` (any text: what the font lacks is drawn
    with stand-ins, a long one cut short) and the counts, then creatures, other spells
    and lands, each card of ``cards`` once as its name bar beside "×N" (counts below 1
    left out). As few columns as keep it within :data:`~bot.pictures.common.MAX_SIDE`
    (60 different cards take four, unscaled). :class:`KeyError` for a card the set does
    not have."""
    return png(draw_deck(cards, title))


# --- a trade -------------------------------------------------------------------------------

TRADE_ROWS = 12
"""Name bars down one column of a trade's side before the side takes another column."""


def trade_rows(cards: Mapping[str, int]) -> list[tuple[str, int]]:
    """One side's cards in the order a deck shows them (creatures, other spells, lands).

    >>> trade_rows({"Ashpeak": 2, "Kindlewhip": 1, "Magma Ridgeback": 1})
    [('Magma Ridgeback', 1), ('Kindlewhip', 1), ('Ashpeak', 2)]
    """
    return [row for _, rows in deck_sections(cards) for row in rows]


def draw_trade(sides: Sequence[tuple[str, Mapping[str, int]]]) -> Image.Image:
    """The picture :func:`render_trade` sends."""
    laid = [(title, trade_rows(cards)) for title, cards in sides]
    widths = [max(1, -(-len(rows) // TRADE_ROWS)) for _, rows in laid]
    side_w = [w * DECK_ROW_W + (w - 1) * COLUMN_GAP for w in widths]
    width = 2 * PAD + sum(side_w) + (len(laid) - 1) * 3 * COLUMN_GAP
    tallest = max([min(len(rows), TRADE_ROWS) for _, rows in laid] + [1])
    height = PAD + SECTION_HEAD + tallest * (STRIP_H + ROW_GAP) + PAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    x = PAD
    for (title, rows), w in zip(laid, side_w, strict=True):
        total = sum(count for _, count in rows)
        words = tr("collections.picture.side", title=title[:MAX_TITLE], cards=total)
        draw_text(draw, (x, PAD + SECTION_HEAD / 2 - 2), fit(words, font(18), w), font(18),
                  SECTION_INK, anchor="lm")
        top = PAD + SECTION_HEAD
        if not rows:
            draw_text(draw, (x, top + STRIP_H / 2),
                      fit(tr("collections.picture.gift"), font(16), w), font(16), DIM,
                      anchor="lm")
        for k, (name, count) in enumerate(rows):
            column, row = divmod(k, TRADE_ROWS)
            left = x + column * (DECK_ROW_W + COLUMN_GAP)
            y = top + row * (STRIP_H + ROW_GAP)
            _badge(draw, left, y, count)
            image.paste(_strip(name), (left + BADGE_W + 4, y))
        x += w + 3 * COLUMN_GAP
    return image


def render_trade(sides: Sequence[tuple[str, Mapping[str, int]]]) -> bytes:
    """PNG of a trade: each side side by side, its title (say "Ada gives", any text,
    cut short to fit) with its card count, then its cards as a deck shows them (name
    bar beside "×N"), :data:`TRADE_ROWS` to a column; a side with no cards says
    "nothing (a gift)". At most :data:`~bot.pictures.common.MAX_SIDE` on its long side.
    :class:`KeyError` for a card the set does not have."""
    return png(draw_trade(sides))
