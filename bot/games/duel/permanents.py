"""Arcane Duel's permanents as the table shows them: tiles, aura tabs and land chips.

A permanent other than a land is a small tile (:data:`TILE_W` × :data:`TILE_H`; turned 90°
when tapped): its frame, name and art, and its power and toughness as they are now,
damage, regeneration shields and summoning sickness. During an attack, attackers are
framed orange and marked ATK, blockers cyan and marked BLK (not red and blue: those are
cards' colours), each pair numbered alike (:class:`Marks`); the spells and abilities on
the stack targeting it are marked T1, T2... The auras that enchant a permanent are tabs
under it (:class:`Slot`, :func:`slots_of`). Lands are chips grouped by name (how many,
how many tapped; :func:`land_chips`, :func:`draw_chip`). The table
(:mod:`bot.games.duel.battlefield`) lays them out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.duel.art import shade
from bot.games.duel.card import ART_BOX
from bot.games.duel.frames import FRAMES, INK, MANA, art_of, crop_to, kind_of
from bot.i18n import current, say, tr, trn
from bot.i18n.cards import card_name
from bot.pictures.common import Colour, draw_text, fit, font, length, seat_name, wrap
from rules.duel.cards import CardDef, card
from rules.duel.phrasing import keyword
from rules.duel.state import DuelView

# --- sizes ---------------------------------------------------------------------------------

TILE_W, TILE_H = 92, 122
"""A permanent's tile on the table, untapped (a tapped one is turned: 122 × 92)."""
TILE_ART_BOTTOM = 80
"""Where a tile's art ends: under it one line of keywords, then power/toughness."""
TAB_H = 20
"""Height of an aura's tab under what it enchants."""
CHIP_H = 38
"""Height of a land chip."""


# --- colours -------------------------------------------------------------------------------

ATTACK = (255, 150, 20)
BLOCK = (40, 220, 230)
TARGET = (200, 110, 240)
DAMAGE = (200, 40, 36)
SHIELD = (60, 110, 200)
SICK = (110, 110, 120)


# --- tiles ---------------------------------------------------------------------------------


def _framed(draw: ImageDraw.ImageDraw, w: int, h: int, frame: Colour, inner: Colour,
            radius: int, rim: int) -> None:
    """A rounded frame ``rim`` pixels wide around an inner panel, from (0, 0): the shape
    of a tile, a tab and a land chip."""
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=frame)
    draw.rounded_rectangle((rim, rim, w - 1 - rim, h - 1 - rim), radius=radius - rim + 1,
                           fill=inner)


def _kind_words(data: CardDef) -> str:
    """What a permanent other than a creature is, in a word under its art."""
    if data.enchants:
        return tr("duel.picture.kind.aura")
    kinds = {"land": tr("duel.picture.kind.land"), "artifact": tr("duel.picture.kind.artifact")}
    return kinds.get(data.type.split()[0], tr("duel.picture.kind.enchantment"))


@lru_cache(maxsize=128)
def _tile_base(name: str, locale: str) -> Image.Image:
    """A permanent's tile without its state, in ``locale``: frame, name, art and type (do
    not modify it)."""
    data = card(name)
    colours = FRAMES[kind_of(data)]
    image = Image.new("RGBA", (TILE_W, TILE_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _framed(draw, TILE_W, TILE_H, colours.frame, colours.bar, radius=7, rim=3)
    name_font = font(14)
    lines = wrap(card_name(name, locale), name_font, TILE_W - 10)
    if len(lines) > 1:  # two lines in a smaller size, so accented capitals stay apart
        name_font = font(12)
        lines = wrap(card_name(name, locale), name_font, TILE_W - 10)
        lines = [lines[0], fit(" ".join(lines[1:]), name_font, TILE_W - 10)]
    for k, line in enumerate(lines):
        draw_text(draw, (TILE_W / 2, (11 + 16 * k) if len(lines) > 1 else 13), line, name_font,
                  colours.ink, anchor="mm")
    art = art_of(data, ART_BOX[2] - ART_BOX[0], ART_BOX[3] - ART_BOX[1])
    box = (5, 36, TILE_W - 5, TILE_ART_BOTTOM)
    image.paste(crop_to(art, box[2] - box[0], box[3] - box[1]), box[:2])
    if not data.is_creature:
        draw_text(draw, (TILE_W / 2, 104), fit(_kind_words(data), font(14), TILE_W - 10),
                  font(14), colours.ink, anchor="mm")
    return image


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
          size: int = 13, ink: Colour = INK, room: float = TILE_W - 14) -> float:
    """A small rounded label from (x, y) (its top left), its words fitted to ``room``;
    returns its width."""
    face = font(size)
    words = fit(words, face, room - 8)
    w = length(words, face) + 8
    draw.rounded_rectangle((x, y, x + w, y + size + 4), radius=(size + 4) // 2, fill=fill)
    draw_text(draw, (x + w / 2, y + (size + 4) / 2), words, face, ink, anchor="mm")
    return w


def _tile(entry: dict[str, Any], marks: Marks) -> Image.Image:
    """A permanent's tile as it is now: power/toughness, damage, shields, sickness and
    the table's marks; turned 90° clockwise when tapped."""
    image = _tile_base(entry["name"], current()).copy()
    draw = ImageDraw.Draw(image)
    data = card(entry["name"])
    if "power" in entry:
        _tile_stats(draw, entry, data)
    y = 40.0
    first_row_ends = 0.0
    for words, fill, on in ((tr("duel.picture.damage", amount=entry["damage"]), DAMAGE,
                             entry["damage"]),
                            (tr("duel.picture.shields", shields=entry["shields"]), SHIELD,
                             entry["shields"]),
                            (tr("duel.picture.sick"), SICK, entry["sick"] and "power" in entry)):
        if on:
            width = _pill(draw, 7, y, words, fill)
            first_row_ends = first_row_ends or 7 + width
            y += 19
    targets_from = 62.0
    outline = ATTACK if marks.attack is not None else BLOCK if marks.block is not None else None
    if outline is not None:
        # Orange and cyan, and a word: the frames of red and blue cards must not pass for them.
        draw.rounded_rectangle((0, 0, TILE_W - 1, TILE_H - 1), radius=7, outline=outline, width=5)
        number = marks.attack if marks.attack is not None else marks.block
        words = fit(tr("duel.picture.attacker", number=number) if marks.attack is not None
                    else tr("duel.picture.blocker", number=number), font(13), TILE_W - 22)
        w = length(words, font(13)) + 8
        # Beside the first pill when both fit (short words), else on a row of its own.
        row = 40.0 if not first_row_ends or first_row_ends + 4 <= TILE_W - 6 - w else y
        _pill(draw, TILE_W - 6 - w, row, words, outline, ink=(16, 16, 16))
        targets_from = max(targets_from, row + 19)
    for k, position in enumerate(marks.targets):
        _pill(draw, TILE_W - 30, targets_from + 19 * k, f"T{position}", TARGET)
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
    words = " ".join(_short_keyword(k) for k in entry["keywords"])
    if words:  # one line between the art and power/toughness
        face = font(12)
        draw_text(draw, (6, (TILE_ART_BOTTOM + TILE_H - 28) / 2), fit(words, face, TILE_W - 12),
                  face, (30, 30, 30), anchor="lm")


def _short_keyword(word: str) -> str:
    """A keyword as a tile says it, short (landwalk in full: ``islandwalk``)."""
    short = {"flying": tr("duel.picture.short.flying"),
             "first strike": tr("duel.picture.short.first_strike"),
             "trample": tr("duel.picture.short.trample"),
             "banding": tr("duel.picture.short.banding")}
    if word.startswith("protection:"):
        return tr("duel.picture.short.protection", colour=word.split(":", 1)[1])
    return short.get(word) or say(keyword(word))


def _tab(name: str, controller: int | None, names: Sequence[str], width: int) -> Image.Image:
    """An aura's tab under what it enchants: its colour and name (and its controller,
    when that is not the enchanted permanent's)."""
    data = card(name)
    colours = FRAMES[kind_of(data)]
    image = Image.new("RGBA", (width, TAB_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    _framed(draw, width, TAB_H, colours.frame, colours.bar, radius=5, rim=2)
    words = (card_name(name) if controller is None else
             tr("duel.picture.aura_of", card=card_name(name), who=seat_name(names, controller)))
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


# --- where they lie ------------------------------------------------------------------------


def _host(entry: dict[str, Any], by_id: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """What an aura is drawn under: the permanent at the end of its chain of
    attachments (an aura on an aura goes under the first one's host)."""
    seen = {entry["id"]}
    while entry["attached"] is not None and entry["attached"] in by_id \
            and entry["attached"] not in seen:
        entry = by_id[entry["attached"]]
        seen.add(entry["id"])
    return entry


def slots_of(view: DuelView) -> dict[int, Slot]:
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


# --- lands ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Chip:
    """Lands shown together: the same name, no aura on them."""

    name: str
    count: int
    tapped: int
    auras: list[dict[str, Any]]


def land_chips(slots: Iterable[Slot]) -> list[Chip]:
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


def draw_chip(chip: Chip, names: Sequence[str], controller: int) -> Image.Image:
    """A land chip: the name and count, the lands as little cards (tapped ones lying
    down) and how many are tapped; auras as tabs under it."""
    data = card(chip.name)
    colours = FRAMES["land"]
    fill = MANA[data.produces[0]][0] if data.produces else colours.bar
    title = (tr("duel.picture.lands", card=card_name(chip.name), copies=chip.count)
             if chip.count > 1 else card_name(chip.name))
    status = (trn("duel.picture.tapped", chip.tapped) if chip.tapped
              else tr("duel.picture.untapped"))
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
