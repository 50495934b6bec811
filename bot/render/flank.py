"""The Flank table as a PNG: a green grid with discs, stoppers and coordinates.

Black and white discs stand for the cards, a red square on a disc is a
stopper (the seed's red stopper tile), a gold frame marks the card laid last
and a faint dot the cards it flipped. Small dots in the mover's colour show
where a card may go. Coordinates run along all four edges with the cell names
players type, and a header and a footer give both players, their counts and
whose turn it is or how the game ended.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.common import Font, clean, font, png, short
from rules.cells import column_name, row_name
from rules.flank.state import MARKS, FlankView
from rules.flank.text import status_lines

CELL = 48
"""Side of a cell in pixels, shrunk on big tables to keep the picture under :data:`MAX_SIDE`."""
MIN_CELL = 6
MAX_SIDE = 1400
"""Longest side of the grid itself, in pixels (Discord shows larger pictures scaled down)."""
MIN_WIDTH = 420

FRAME = (24, 38, 30)
TABLE = (33, 122, 62)
LINE = (18, 80, 38)
INK = (236, 240, 236)
DIM = (168, 190, 172)
DISC = ((22, 22, 22), (242, 242, 238))
RIM = ((70, 70, 70), (150, 150, 146))
STOPPER = (210, 30, 36)
STOPPER_RIM = (120, 10, 14)
LAST = (255, 196, 0)


def _cell_size(columns: int, rows: int) -> int:
    return max(MIN_CELL, min(CELL, MAX_SIDE // max(columns, rows)))


def render_png(view: FlankView, names: Sequence[str]) -> bytes:
    """The table of ``view`` as PNG bytes; ``names`` are the seats' display names."""
    x0, y0, x1, y1 = view.bounds
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    cell = _cell_size(columns, rows)
    label_font = font(max(9, cell * 3 // 10))
    text_font = font(16)
    line_h = 22
    edge = max(22, label_font.getbbox("-AA")[2] + 8)
    names = [short(names[seat]) if seat < len(names) else ("Black", "White")[seat]
             for seat in (0, 1)]
    footer = [clean(line) for line in status_lines(view, names)[2:]]
    header_h = 2 * line_h + 10
    footer_h = len(footer) * line_h + 10
    grid_w, grid_h = columns * cell, rows * cell
    texts = [_seat_line(view, names, seat) for seat in (0, 1)]
    width = max(MIN_WIDTH, grid_w + 2 * edge,
                56 + max(int(text_font.getlength(t)) for t in texts),
                20 + max(int(text_font.getlength(t)) for t in footer))
    height = header_h + grid_h + 2 * edge + footer_h
    image = Image.new("RGB", (width, height), FRAME)
    draw = ImageDraw.Draw(image)
    left = (width - grid_w) // 2
    top = header_h + edge

    _header(draw, view, texts, text_font, line_h)
    draw.rectangle((left, top, left + grid_w - 1, top + grid_h - 1), fill=TABLE)
    for k in range(columns + 1):
        x = left + k * cell
        draw.line((x, top, x, top + grid_h), fill=LINE, width=1)
    for k in range(rows + 1):
        y = top + k * cell
        draw.line((left, y, left + grid_w, y), fill=LINE, width=1)
    _labels(draw, view, label_font, left, top, cell, edge)

    pad = max(2, cell // 10)
    mover = view.to_move
    for (x, y) in view.legal:
        cx = left + (x - x0) * cell + cell // 2
        cy = top + (y - y0) * cell + cell // 2
        r = max(2, cell // 10)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DISC[mover] if mover is not None
                     else DIM)
    for (x, y), (colour, stoppered) in view.cells.items():
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        cx0 = left + (x - x0) * cell
        cy0 = top + (y - y0) * cell
        if (x, y) == view.last_move:
            draw.rectangle((cx0 + 1, cy0 + 1, cx0 + cell - 1, cy0 + cell - 1), outline=LAST,
                           width=max(2, cell // 16))
        draw.ellipse((cx0 + pad, cy0 + pad, cx0 + cell - pad, cy0 + cell - pad),
                     fill=DISC[colour], outline=RIM[colour], width=max(1, cell // 24))
        mid_x, mid_y = cx0 + cell // 2, cy0 + cell // 2
        if stoppered:
            s = max(3, cell * 9 // 50)
            draw.rounded_rectangle((mid_x - s, mid_y - s, mid_x + s, mid_y + s),
                                   radius=max(1, s // 3), fill=STOPPER, outline=STOPPER_RIM,
                                   width=max(1, cell // 32))
        elif (x, y) in view.flipped:
            r = max(2, cell // 14)
            draw.ellipse((mid_x - r, mid_y - r, mid_x + r, mid_y + r), fill=RIM[colour])

    y = top + grid_h + edge + 4
    for line in footer:
        draw.text((width // 2, y + line_h // 2), line, fill=INK, font=text_font, anchor="mm")
        y += line_h
    return png(image, max_side=None)


def _seat_line(view: FlankView, names: Sequence[str], seat: int) -> str:
    stoppers = f" · {view.stoppers_left[seat]} stoppers" if view.stoppers else ""
    return (f"{names[seat]} ({MARKS[seat]}): {view.scores[seat]} showing · "
            f"{view.cards_left[seat]} cards{stoppers}")


def _header(draw: ImageDraw.ImageDraw, view: FlankView, texts: Sequence[str],
            font: Font, line_h: int) -> None:
    for seat in (0, 1):
        y = 6 + seat * line_h
        mid = y + line_h // 2
        r = 7
        draw.ellipse((10, mid - r, 10 + 2 * r, mid + r), fill=DISC[seat], outline=RIM[seat])
        turn = view.to_move == seat
        if turn:
            draw.polygon(((32, mid - 6), (32, mid + 6), (42, mid)), fill=LAST)
        draw.text((48, mid), texts[seat], fill=INK if turn or view.outcome else DIM,
                  font=font, anchor="lm")


def _labels(draw: ImageDraw.ImageDraw, view: FlankView, font: Font,
            left: int, top: int, cell: int, edge: int) -> None:
    x0, y0, x1, y1 = view.bounds
    right = left + (x1 - x0 + 1) * cell
    bottom = top + (y1 - y0 + 1) * cell
    # On a big table with small cells, label every few lines so labels do not overlap.
    across = -(-(int(font.getlength("-AA")) + 4) // cell)
    down = -(-(int(font.size if hasattr(font, "size") else 10) + 2) // cell)
    for x in range(x0, x1 + 1):
        if (x - x0) % across:
            continue
        cx = left + (x - x0) * cell + cell // 2
        label = column_name(x)
        draw.text((cx, top - edge // 2), label, fill=DIM, font=font, anchor="mm")
        draw.text((cx, bottom + edge // 2), label, fill=DIM, font=font, anchor="mm")
    for y in range(y0, y1 + 1):
        if (y - y0) % down:
            continue
        cy = top + (y - y0) * cell + cell // 2
        label = row_name(y)
        draw.text((left - edge // 2, cy), label, fill=DIM, font=font, anchor="mm")
        draw.text((right + edge // 2, cy), label, fill=DIM, font=font, anchor="mm")
