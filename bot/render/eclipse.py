"""Eclipse's pictures: single cards, a player's hand and the whole table, as PNGs.

A card shows the four sections of the physical card: the top symbol (a sun, a
disc with rays, or a moon, a crescent) in the top section, the bottom symbol
(♂, a ring with an arrow, or ♀, a ring with a cross) in the bottom one, the
number on the left and the emblem on the right (shield, bolt, cog, butterfly,
star). Sun cards are gold and moon cards blue-silver, so the tops read at a
glance. A follower is a grey hatched card with a big F; a card back is violet
with a gold eclipse.

The built-in font has none of ☀🌙♂♀ or the emblems, so every symbol is drawn
as shapes (supersampled, for smooth edges), and text that mentions them is
rewritten in words (``♂`` → ``male``, ``→`` → ``->``) before it is drawn, by
:func:`bot.render.common.ascii_text`.

The table is a stack of bands on a night-blue background: a header (hand count,
deck size, who is awaited); one band per seat in seat order with the name, an
ATTACKER or DEFENDER tag, the hand as a few card backs and a count, and the
regular subsets as numbered groups of overlapping cards, each labelled with its
number, its kind drawn as symbols, and its size out of 6 (a seat that is out is
dimmed and tagged OUT); the safe set with six slots and its count; the reveal
(both cards side by side, the numbers presented, the winner and the judging
step by step); and the result once the game is over.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.common import (
    MAX_SIDE,
    SS,
    Colour,
    Point,
    ascii_text,
    fit,
    font,
    game_over,
    png,
    rotated,
    seat_name,
    supersampled,
    wrap,
)
from rules.eclipse.cards import Card
from rules.eclipse.view import EclipseView, Reveal, SubsetView

CARD_W, CARD_H = 64, 92
"""A card's size in pixels at scale 1."""
COMPLETE = 6
"""Cards that complete a subset or the safe set (the spec's requisite number)."""
WIDTH = 1040
"""Width of the table picture."""
PAD = 12
LEFT = 236
"""Width of a band's left column (name, tags, hand)."""
BAND_GAP = 8
HAND_SCALE = 1.25
HAND_PER_ROW = 10
SUBSET_SCALES = (0.6, 0.48, 0.38)
"""Card scales for the subsets, tried in turn until the table fits :data:`MAX_SIDE`."""
SAFE_SCALE = 0.6
REVEAL_SCALE = 1.1
BACK_SCALE = 0.26
LABEL_H = 20
"""Height of a subset's label line over its cards."""

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


@lru_cache(maxsize=512)
def _symbol_card(top: str, bottom: str, emblem: str, number: int, w: int, h: int
                 ) -> Image.Image:
    face, rim, line, ink = FACE[top]

    def sections(draw: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
        width = max(1, bw // 60)
        upper, lower = round(bh * 0.33), round(bh * 0.67)
        inset = round(bw * 0.1)
        draw.line((inset, upper, bw - inset, upper), fill=line, width=width)
        draw.line((inset, lower, bw - inset, lower), fill=line, width=width)
        draw.line((bw * 0.46, upper, bw * 0.46, lower), fill=line, width=width)

    card = _base(w, h, face, rim, sections)
    _paste_icon(card, top, round(w * 0.46), w / 2, h * 0.17)
    _paste_icon(card, bottom, round(w * 0.4), w / 2, h * 0.835, SEX_ON_CARD[bottom])
    _paste_icon(card, emblem, round(w * 0.4), w * 0.73, h * 0.5)
    ImageDraw.Draw(card).text((w * 0.24, h * 0.5), str(number), fill=ink,
                              font=font(max(7, round(w * 0.3))), anchor="mm")
    return card


@lru_cache(maxsize=32)
def _follower_card(w: int, h: int) -> Image.Image:
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
    draw.text((cx, cy), "F", fill=ink, font=font(max(7, round(w * 0.3))), anchor="mm")
    if w >= 40:
        draw.text((cx, h * 0.82), "follower", fill=ink, font=font(max(7, round(w * 0.15))),
                  anchor="mm")
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
        return _follower_card(w, h)
    return _symbol_card(card.top, card.bottom, card.emblem, card.number, w, h)


def render_card(card: Card, *, scale: float = 1.0) -> Image.Image:
    """One card face up, about 64×92 pixels at ``scale`` 1, as an RGBA image with
    transparent corners: top symbol above, ♂/♀ below, number left, emblem right;
    gold for sun, blue-silver for moon, grey hatched with an F for a follower."""
    return _card_image(card, scale).copy()


def render_back(*, scale: float = 1.0) -> Image.Image:
    """A face-down card (violet, with a gold eclipse), the size of :func:`render_card`'s."""
    return _card_image(None, scale).copy()


def _paste_card(image: Image.Image, card: Card | None, scale: float, x: float,
                y: float) -> None:
    picture = _card_image(card, scale)
    image.paste(picture, (round(x), round(y)), picture)


# --- a hand --------------------------------------------------------------------------


def render_hand(cards: Sequence[Card]) -> bytes:
    """PNG of a hand: the cards in rows, each with its code (``S13f``, ``F``) under it,
    the codes the select menu offers. An empty hand is a small picture saying so."""
    title_font, code_font = font(16), font(16)
    if not cards:
        image = Image.new("RGB", (300, 64), BG)
        ImageDraw.Draw(image).text((150, 32), "Your hand is empty.", fill=DIM,
                                   font=title_font, anchor="mm")
        return png(image)
    w, h = _card_size(HAND_SCALE)
    gap, code_h, title_h = 10, 24, 32
    per_row = min(len(cards), HAND_PER_ROW)
    rows = -(-len(cards) // per_row)
    width = max(280, 2 * PAD + per_row * (w + gap) - gap)
    height = title_h + rows * (h + code_h + 6) + PAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    count = f"{len(cards)} card" + ("s" if len(cards) != 1 else "")
    draw.text((PAD, title_h // 2 + 2), f"Your hand: {count}", fill=INK, font=title_font,
              anchor="lm")
    for k, card in enumerate(cards):
        row, col = divmod(k, per_row)
        x = PAD + col * (w + gap)
        y = title_h + row * (h + code_h + 6)
        _paste_card(image, card, HAND_SCALE, x, y)
        draw.text((x + w / 2, y + h + code_h // 2 + 1), ascii_text(card.code), fill=INK,
                  font=code_font, anchor="mm")
    return png(image)


# --- the table -----------------------------------------------------------------------


def _band(height: int, fill: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH - 2 * PAD, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, image.width - 1, height - 1), radius=10, fill=fill)
    return image, draw


def _tag(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, text: str,
         fill: Colour, icon: str | None = None, ink: Colour = INK) -> float:
    """A pill with ``text`` (and a symbol) at (x, y), 20 px high; returns its width."""
    tag_font = font(13)
    icon_w = 18 if icon else 0
    width = 14 + icon_w + tag_font.getlength(text)
    draw.rounded_rectangle((x, y, x + width, y + 20), radius=10, fill=fill)
    if icon:
        _paste_icon(image, icon, 15, x + 7 + 7, y + 10)
    draw.text((x + 7 + icon_w, y + 10), text, fill=ink, font=tag_font, anchor="lm")
    return width


def _kind_width(subset: SubsetView) -> float:
    icons = (2 if subset.top else 1) * 18
    key = 18 if subset.bottom == "male" else 4 + font(13).getlength(ascii_text(subset.key))
    return icons + key


def _draw_kind(image: Image.Image, draw: ImageDraw.ImageDraw, subset: SubsetView,
               x: float, cy: float) -> float:
    """The subset's kind as symbols (top, ♂/♀, emblem or ``odd``/``even``); returns the
    x after it."""
    names = [subset.top] if subset.top else []
    names.append(subset.bottom)
    for name in names:
        fill = SEX_ON_TABLE.get(name)
        _paste_icon(image, name, 16, x + 8, cy, fill)
        x += 18
    if subset.bottom == "male":
        _paste_icon(image, subset.key, 16, x + 8, cy)
        return x + 18
    draw.text((x + 3, cy), ascii_text(subset.key), fill=INK, font=font(13), anchor="lm")
    return x + 4 + font(13).getlength(ascii_text(subset.key))


def _fan_step(count: int, w: int) -> float:
    return w * 0.5 if count <= 7 else w * 3 / (count - 1)


def _fan_width(count: int, w: int) -> float:
    return w + max(0, count - 1) * _fan_step(count, w)


def _group_width(subset: SubsetView, w: int) -> float:
    label = font(14).getlength(f"{subset.number}") + 6 + _kind_width(subset) + 6 + \
        font(12).getlength(f"{subset.size}/{COMPLETE}")
    return max(label, _fan_width(subset.size, w))


def _draw_group(image: Image.Image, draw: ImageDraw.ImageDraw, subset: SubsetView,
                x: float, y: float, scale: float) -> None:
    """Subset ``subset`` at (x, y): its label (number, kind, size) over its cards."""
    number = f"{subset.number}"
    draw.text((x, y + LABEL_H / 2), number, fill=GOLD, font=font(14), anchor="lm")
    after = _draw_kind(image, draw, subset, x + font(14).getlength(number) + 6,
                       y + LABEL_H / 2)
    full = subset.size >= COMPLETE
    draw.text((after + 6, y + LABEL_H / 2), f"{subset.size}/{COMPLETE}",
              fill=GOLD if full else DIM, font=font(12), anchor="lm")
    w, _ = _card_size(scale)
    step = _fan_step(subset.size, w)
    for k, card in enumerate(subset.cards):
        _paste_card(image, card, scale, x + k * step, y + LABEL_H + 2)


def _seat_band(view: EclipseView, seat: int, names: Sequence[str], scale: float
               ) -> Image.Image:
    w, h = _card_size(scale)
    area_x, area_w = LEFT, WIDTH - 2 * PAD - LEFT - 14
    row_h = LABEL_H + 2 + h + 10
    placed: list[tuple[SubsetView, float, float]] = []
    x = y = 0.0
    for subset in view.subsets[seat]:
        width = _group_width(subset, w)
        if x and x + width > area_w:
            x, y = 0.0, y + row_h
        placed.append((subset, x, y))
        x += width + 22
    left_h = 96
    height = max(left_h, 10 + (round(y) + row_h if placed else 0))
    out = view.out[seat]
    image, draw = _band(height, BAND)

    name = seat_name(names, seat)
    you = " (you)" if view.seat == seat else ""
    name_font = font(18)
    name = fit(name, name_font, LEFT - 24 - name_font.getlength(you))
    draw.text((12, 18), name, fill=INK, font=name_font, anchor="lm")
    if you:
        draw.text((12 + name_font.getlength(name), 18), you, fill=DIM, font=name_font,
                  anchor="lm")
    tag_x = 12.0
    if not out:
        if seat == view.attacker:
            tag_x += _tag(image, draw, tag_x, 34, "ATTACKER", ATTACK, "sword") + 6
        if seat == view.defender:
            tag_x += _tag(image, draw, tag_x, 34, "DEFENDER", DEFEND, "shield") + 6
        if view.outcome is not None:
            if seat in view.outcome.winners:
                _tag(image, draw, tag_x, 34, "WINNER", GOLD, ink=BG)
        elif seat in view.chosen:
            _tag(image, draw, tag_x, 34, "ready", (46, 110, 70))
        elif seat in view.waiting:
            _tag(image, draw, tag_x, 34, "to act", (120, 96, 30))
        hand = view.hand_sizes[seat]
        bw, bh = _card_size(BACK_SCALE)
        shown = min(hand, 8)
        for k in range(shown):
            _paste_card(image, None, BACK_SCALE, 12 + k * 7, 62)
        text_x = 12 + (bw + (shown - 1) * 7 + 8 if shown else 0)
        draw.text((text_x, 62 + bh / 2), f"hand: {hand} · in front: {view.cards_in_front(seat)}",
                  fill=DIM, font=font(13), anchor="lm")
    if not placed:
        draw.text((area_x, height / 2), "nothing in front" if not out else "",
                  fill=FAINT, font=font(14), anchor="lm")
    for subset, gx, gy in placed:
        _draw_group(image, draw, subset, area_x + gx, 8 + gy, scale)
    if out:
        image = Image.blend(image, Image.new("RGB", image.size, BG), 0.5)
        draw = ImageDraw.Draw(image)
        _tag(image, draw, 12, 34, "OUT", OUT_TAG)
    return image


def _safe_band(view: EclipseView) -> Image.Image:
    w, h = _card_size(SAFE_SCALE)
    height = max(84, 16 + h)
    image, draw = _band(height, SAFE_BAND)
    safe = view.safe_set
    count = safe.size if safe else 0
    draw.text((12, 18), "Safe set", fill=INK, font=font(18), anchor="lm")
    draw.text((12, 44), f"{count}/{COMPLETE}", fill=GOLD if count >= COMPLETE else INK,
              font=font(16), anchor="lm")
    if safe is not None:
        _draw_kind(image, draw, safe, 60, 44)
    else:
        draw.text((60, 44), "empty", fill=DIM, font=font(13), anchor="lm")
    cards = safe.cards if safe else ()
    for k in range(max(COMPLETE, len(cards))):
        x, y = LEFT + k * (w + 10), (height - h) / 2
        if k < len(cards):
            _paste_card(image, cards[k], SAFE_SCALE, x, y)
        else:
            draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=max(2, w // 8),
                                   outline=FAINT, width=1)
    return image


def _reveal_band(view: EclipseView, reveal: Reveal, names: Sequence[str]) -> Image.Image:
    w, h = _card_size(REVEAL_SCALE)
    column = 150
    text_x = 12 + 2 * column + 24
    text_w = WIDTH - 2 * PAD - text_x - 14
    head_font, line_font = font(18), font(15)
    if reveal.winner is not None:
        role = "attacker" if reveal.winner == reveal.attacker else "defender"
        head = f"{seat_name(names, reveal.winner)} ({role}) wins the hand"
    elif view.phase == "numbers":
        head = "Waiting for the numbers"
    else:
        head = "Not settled yet"
    head = fit(head, head_font, text_w)
    steps = [(k == 0, line) for step in reveal.judging.split(";") if step.strip()
             for k, line in enumerate(wrap(ascii_text(step.strip()), line_font, text_w - 14))]
    column_h = 10 + 20 + h + 6 + 20 + 20 + 8
    text_h = 12 + 28 + len(steps) * 20 + 10
    image, draw = _band(max(column_h, text_h), REVEAL_BAND)

    sides = ((reveal.attacker, reveal.attacker_card, "attacker", ATTACK, 0),
             (reveal.defender, reveal.defender_card, "defender", DEFEND, 1))
    for seat, card, role, colour, k in sides:
        cx = 12 + k * column + column / 2
        draw.text((cx, 20), role.upper(), fill=colour, font=font(14), anchor="mm")
        x, y = cx - w / 2, 32
        if card is not None:
            _paste_card(image, card, REVEAL_SCALE, x, y)
        else:
            draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=w // 8, outline=FAINT,
                                   width=2)
            draw.text((cx, y + h / 2), "no card", fill=DIM, font=font(13), anchor="mm")
        name_y = y + h + 14
        draw.text((cx, name_y), fit(seat_name(names, seat), font(14), column - 8), fill=INK,
                  font=font(14), anchor="mm")
        detail = [ascii_text(card.code)] if card is not None else []
        if reveal.numbers is not None:
            detail.append(f"presents {reveal.numbers[k]}")
        draw.text((cx, name_y + 18), " · ".join(detail), fill=GOLD, font=font(14),
                  anchor="mm")
    draw.text((12 + column, 32 + h / 2), "vs", fill=DIM, font=font(16), anchor="mm")
    draw.text((text_x, 22), head, fill=GOLD if reveal.winner is not None else INK,
              font=head_font, anchor="lm")
    for k, (first, line) in enumerate(steps):
        if first:
            draw.text((text_x + 2, 48 + k * 20), "›", fill=DIM, font=line_font, anchor="lm")
        draw.text((text_x + 14, 48 + k * 20), line, fill=INK, font=line_font, anchor="lm")
    return image


def _outcome_band(view: EclipseView, names: Sequence[str]) -> Image.Image:
    outcome = view.outcome
    assert outcome is not None
    result_font = font(18)
    head = game_over(outcome, [seat_name(names, seat) for seat in outcome.winners])
    lines = wrap(head, result_font, WIDTH - 2 * PAD - 24)
    if len(outcome.places) > 2:
        order = sorted(range(len(outcome.places)), key=lambda s: (outcome.places[s], s))
        places = " · ".join(f"{outcome.places[s]}. {seat_name(names, s)}" for s in order)
        lines += wrap("Places: " + places, result_font, WIDTH - 2 * PAD - 24)
    image, draw = _band(14 + 24 * len(lines), REVEAL_BAND)
    for k, line in enumerate(lines):
        draw.text((12, 19 + 24 * k), line, fill=GOLD, font=result_font, anchor="lm")
    return image


def _header(view: EclipseView, names: Sequence[str]) -> Image.Image:
    image = Image.new("RGB", (WIDTH - 2 * PAD, 40), BG)
    draw = ImageDraw.Draw(image)
    title_font = font(22)
    draw.text((0, 20), "ECLIPSE", fill=GOLD, font=title_font, anchor="lm")
    x = title_font.getlength("ECLIPSE") + 16
    if view.outcome is not None:
        count = f"{view.hands_played} hands played"
    else:
        count = f"hand {min(view.hands_played + 1, view.hand_cap)} of {view.hand_cap}"
    info = f"{count} · deck: {view.deck_size} cards"
    draw.text((x, 21), info, fill=INK, font=font(16), anchor="lm")
    x += font(16).getlength(info) + 24
    status = []
    if view.outcome is None and view.waiting:
        status.append("waiting for " + ", ".join(seat_name(names, s) for s in view.waiting))
    if view.counter_left:
        status.append(f"counterattack: {view.counter_left} to move")
    if view.moving is not None:
        status.append(f"placing {ascii_text(view.moving.code)}")
    if status:
        text = fit(" · ".join(status), font(14), image.width - x)
        draw.text((image.width, 21), text, fill=DIM, font=font(14), anchor="rm")
    return image


def render_table(view: EclipseView, names: Sequence[str]) -> bytes:
    """PNG of the whole table of ``view``; ``names`` are the seats' display names.

    One band per seat in seat order (name, ATTACKER/DEFENDER, OUT dimmed, hand
    size as card backs, the regular subsets as numbered groups), then the safe
    set (x/6), the reveal when there is one, and the result once the game is
    over; the header gives the hand count, the deck size and who is awaited.
    About 1040 pixels wide and never over :data:`MAX_SIDE` on either side.
    """
    fixed = [_header(view, names), _safe_band(view)]
    if view.reveal is not None:
        fixed.append(_reveal_band(view, view.reveal, names))
    if view.outcome is not None:
        fixed.append(_outcome_band(view, names))
    for scale in SUBSET_SCALES:
        seats = [_seat_band(view, seat, names, scale) for seat in range(view.seats)]
        bands = [fixed[0], *seats, *fixed[1:]]
        height = PAD + sum(b.height for b in bands) + BAND_GAP * (len(bands) - 1) + PAD
        if height <= MAX_SIDE:
            break
    image = Image.new("RGB", (WIDTH, height), BG)
    y = PAD
    for band in bands:
        image.paste(band, (PAD, y))
        y += band.height + BAND_GAP
    return png(image)
