"""Arcane Duel's table: the public battlefield, as one PNG.

**The table** (:func:`render_battlefield`) is one picture, :data:`WIDTH` wide (wider, with
more tiles a row, only when it would otherwise be taller than the 1400 px limit): a header
(turn, active player, phase, who is deciding), then one band per seat in seat order: name,
life, library, hand and graveyard counts (counts only: it reads nothing but the view's
public fields, so a seat's view and a spectator's draw the same picture), a TURN mark for
the active player and TO ACT for whoever decides, OUT (and dimmed) for a player who lost;
the lands as chips grouped by name (how many, how many tapped); the other permanents as
small tiles (:mod:`bot.games.duel.permanents`; turned 90° when tapped) with their power
and toughness as they are now, damage, regeneration shields and summoning sickness, and
the auras that enchant them as tabs under them. During an attack, attackers are framed
orange and marked ATK, blockers cyan and marked BLK (not red and blue: those are cards'
colours), each pair numbered alike and joined by a line. The stack, while it is not
empty, is listed top first with its controller, target and X.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.games.duel.frames import BG, DIM, FRAMES, GOLD, INK, PAD, kind_of
from bot.games.duel.permanents import (
    TARGET,
    TILE_H,
    TILE_W,
    Marks,
    Slot,
    draw_chip,
    land_chips,
    slots_of,
)
from bot.i18n import say, tr
from bot.i18n.cards import card_name
from bot.pictures.common import MAX_SIDE, Colour, draw_text, fit, font, length, png, seat_name
from rules.duel.cards import card
from rules.duel.phrasing import phase
from rules.duel.state import DuelView
from rules.duel.table_words import asking, stage

# --- sizes ---------------------------------------------------------------------------------

WIDTH = 520
"""Width of the table: narrow, so a phone (400 px) scales it down little (to 77 %)."""
WIDER = (640, 960, 1280)
"""Widths tried in turn for a table that would be taller than MAX_SIDE at :data:`WIDTH`
(more tiles a row), before it is scaled down to fit."""
INSET = 8
GAP = 6
HEAD_H = 58
"""Height of a player band's header (name, marks, life, counts)."""


# --- colours -------------------------------------------------------------------------------

BAND = (38, 44, 58)
OUT_BAND = (34, 34, 38)
STACK_BAND = (52, 42, 70)
ACT = (60, 170, 96)
OUT = (110, 110, 118)
LIFE = (220, 64, 80)


# --- the table: bands ----------------------------------------------------------------------


def _order(entry: dict[str, Any]) -> int:
    """Creatures first, then artifacts, then enchantments."""
    if "power" in entry:
        return 0
    return 1 if "artifact" in entry["type"] else 2


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
        tags.append((tr("duel.picture.out"), OUT))
    else:
        if seat == view.active:
            tags.append((tr("duel.picture.turn"), GOLD))
        if seat == view.deciding:
            tags.append((tr("duel.picture.to_act"), ACT))
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
    counts = tr("duel.picture.counts", library=player["library"], hand=player["hand"],
                graveyard=len(player["graveyard"]))
    if pool:
        counts = tr("duel.picture.with_pool", counts=counts, pool=pool)
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
    chips = [draw_chip(c, names, seat) for c in land_chips(lands)]
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
        draw_text(draw, (INSET, top_tiles + 6), fit(tr("duel.picture.nothing_in_play"), font(14),
                                                    inner), font(14), DIM, anchor="lm")
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
    info = tr("duel.picture.turn_phase", turn=view.turn, who=seat_name(names, view.active),
              phase=say(phase(view.phase)))
    draw_text(draw, (x, 15), fit(info, font(16), band_w - x), font(16), INK, anchor="lm")
    if view.deciding is not None:
        status = tr("duel.picture.waiting", who=seat_name(names, view.deciding),
                    doing=say(asking(view)))
    else:
        status = tr("duel.picture.over")
    if view.combat is not None:
        status = tr("duel.picture.with_attack", status=status,
                    stage=say(stage(view.combat["stage"])))
    draw_text(draw, (0, 42), fit(status, font(15), band_w), font(15), DIM, anchor="lm")
    return image


def _target_words(target: str | None, view: DuelView, names: Sequence[str]) -> str:
    if not target:
        return ""
    if target.startswith("p") and target[1:].isdigit():
        return seat_name(names, int(target[1:]) - 1)
    if target.isdigit():
        name = view.names.get(int(target))
        return card_name(name) if name else target
    return target


def _stack_band(view: DuelView, names: Sequence[str], band_w: int) -> Image.Image:
    """The stack, top first: position, name, controller, X, target."""
    row = 24
    height = 2 * INSET + 24 + row * len(view.stack)
    image = Image.new("RGB", (band_w, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, band_w - 1, height - 1), radius=10, fill=STACK_BAND)
    draw_text(draw, (INSET, INSET + 10), fit(tr("duel.picture.stack"), font(16),
                                             band_w - 2 * INSET), font(16), INK, anchor="lm")
    for k, item in enumerate(reversed(view.stack)):
        y = INSET + 24 + row * k + row / 2
        _tag(draw, INSET, y, f"T{k + 1}", TARGET)
        data = card(item["name"])
        fill = FRAMES[kind_of(data)].frame
        draw.ellipse((INSET + 44, y - 6, INSET + 56, y + 6), fill=fill, outline=INK)
        words = tr("duel.picture.stack_item", card=card_name(item["name"]),
                   who=seat_name(names, item["controller"]))
        if item["x"]:
            words = tr("duel.picture.with_x", item=words, x=item["x"])
        if item["interrupt"]:
            words = tr("duel.picture.interrupt", item=words)
        target = _target_words(item["target"], view, names)
        if target:
            words = tr("duel.picture.aimed", item=words, target=target)
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
    slots = slots_of(view)
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
    :data:`~bot.pictures.common.MAX_SIDE` on its long side (a table too busy even then is
    scaled down to fit)."""
    return png(draw_battlefield(view, names), MAX_SIDE)
