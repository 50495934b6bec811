"""The Flank table as a PNG: a green grid with discs, stoppers and coordinates.

Black and white discs stand for the cards, a red square on a disc is a stopper (the
seed's red stopper tile), a gold frame marks the card laid last and a dot of the other
colour (the colour it was) each card it flipped: big enough, and as far from the disc's
colour as can be, to be seen on a phone. Small dots in the mover's colour show where a
card may go, and a red cross an empty cell where the stopper zone
(``stopper_zone=orthogonal`` or ``ring``) forbids a card. A legend under the grid
explains every mark the picture shows, each sample drawn as on the grid (the last card
and a flipped one in the colour of the card laid last). Coordinates run along all four
edges with the cell names players type, and a header and a footer give both players
(black, who moved first, on top), their counts and whose turn it is or how the game
ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.i18n import Phrase, say, tr
from bot.i18n.options import choice_label
from bot.pictures.common import Font, clean, draw_text, font, length, png, short
from rules.cells import column_name, row_name
from rules.flank.state import MARKS, FlankView
from rules.flank.text import play_order, seat_name, status_lines

CELL = 48
"""Side of a cell in pixels, shrunk on big tables to keep the picture under :data:`MAX_SIDE`."""
MIN_CELL = 6
MAX_SIDE = 1400
"""Longest side of the grid itself, in pixels (Discord shows larger pictures scaled down)."""
MIN_WIDTH = 420
KEY = 20
"""Side of a legend's sample cell, in pixels."""

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
FLIP_MARK = 0.2
"""Radius of a flipped card's mark, in cells (its disc's radius is 0.4)."""
BARRED = (196, 64, 52)
"""The cross on a cell where the stopper zone forbids a card."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the grid lies in the picture."""

    left: int
    """x of the grid's left edge."""
    top: int
    """y of the grid's top edge."""
    cell: int
    """Side of a cell."""
    x0: int
    """Table column drawn first (leftmost)."""
    y0: int
    """Table row drawn first (top)."""

    def corner(self, x: int, y: int) -> tuple[int, int]:
        """The top-left pixel of table cell ``(x, y)``."""
        return self.left + (x - self.x0) * self.cell, self.top + (y - self.y0) * self.cell

    def centre(self, x: int, y: int) -> tuple[int, int]:
        """The middle pixel of table cell ``(x, y)``."""
        cx, cy = self.corner(x, y)
        return cx + self.cell // 2, cy + self.cell // 2


def legend_items(view: FlankView) -> list[tuple[str, str]]:
    """``(mark, words)`` for each kind of mark the picture of ``view`` shows, in the
    order the legend draws them, the words in the locale spoken. Marks: ``last``,
    ``flipped``, ``stopper``, ``legal``, ``barred``.

    >>> from rules.flank.state import FlankState
    >>> state = FlankState({"stopper_zone": "ring"}, first=0)
    >>> [mark for mark, _ in legend_items(state.observe(None))]
    ['legal']
    >>> _ = state.apply(0, "F4*")
    >>> legend_items(state.observe(None))  # doctest: +NORMALIZE_WHITESPACE
    [('last', 'last card laid'), ('flipped', 'flipped by it'), ('stopper', 'stopper'),
     ('legal', 'O may lay here'), ('barred', 'no card may go here (stopper zone: ring)')]
    """
    items = []
    if view.last_move is not None and view.last_move in view.cells:
        items.append(("last", tr("flank.legend.last")))
    if view.flipped & view.cells.keys():
        items.append(("flipped", tr("flank.legend.flipped")))
    if any(stoppered for _, stoppered in view.cells.values()):
        items.append(("stopper", tr("flank.legend.stopper")))
    if view.legal and view.to_move is not None:
        items.append(("legal", tr("flank.legend.legal",
                                  mark=MARKS[view.colours[view.to_move]])))
    if view.barred:
        zone = choice_label("flank", "stopper_zone", view.stopper_zone, view.stopper_zone)
        items.append(("barred", tr("flank.legend.barred", zone=zone)))
    return items


def _cell_size(columns: int, rows: int) -> int:
    return max(MIN_CELL, min(CELL, MAX_SIDE // max(columns, rows)))


LegendRow = list[tuple[str, str, int]]
"""A row of the legend: ``(mark, words, width in pixels)`` per item."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """Sizes and texts of one picture, worked out before anything is drawn."""

    place: Layout
    width: int
    height: int
    label_font: Font
    text_font: Font
    key_font: Font
    line_h: int
    edge: int
    texts: dict[int, str]
    """Each seat's line in the header."""
    footer: list[str]
    legend: list[LegendRow]
    legend_h: int
    legend_top: int
    """y of the legend's first row."""


def layout(view: FlankView, names: Sequence[str]) -> Layout:
    """Where the grid lies in the picture :func:`render_png` draws of ``view``."""
    return _plan(view, names).place


def _plan(view: FlankView, names: Sequence[str]) -> _Plan:
    x0, y0, x1, y1 = view.bounds
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    cell = _cell_size(columns, rows)
    label_font = font(max(9, cell * 3 // 10))
    text_font = font(16)
    key_font = font(13)
    line_h = 22
    edge = max(22, label_font.getbbox("-AA")[2] + 8)
    names = [short(say(seat_name(view, names, seat))) for seat in (0, 1)]
    footer = [clean(say(line)) for line in status_lines(view, names)[2:]]
    header_h = 2 * line_h + 10
    grid_w, grid_h = columns * cell, rows * cell
    texts = {seat: _seat_line(view, names, seat) for seat in (0, 1)}
    width = max(MIN_WIDTH, grid_w + 2 * edge,
                56 + max(int(length(t, text_font)) for t in texts.values()),
                20 + max(int(length(t, text_font)) for t in footer))
    legend = _legend_rows(legend_items(view), key_font, width - 20)
    legend_h = len(legend) * (KEY + 6) + (6 if legend else 0)
    footer_h = len(footer) * line_h + 10
    height = header_h + grid_h + 2 * edge + legend_h + footer_h
    place = Layout((width - grid_w) // 2, header_h + edge, cell, x0, y0)
    legend_top = header_h + edge + grid_h + edge + 2
    return _Plan(place, width, height, label_font, text_font, key_font, line_h, edge, texts,
                 footer, legend, legend_h, legend_top)


def legend_keys(view: FlankView, names: Sequence[str]) -> list[tuple[str, tuple[int, int]]]:
    """Each legend item's mark (see :func:`legend_items`) and the top-left pixel of its
    sample cell (:data:`KEY` square) in the picture :func:`render_png` draws of ``view``."""
    plan = _plan(view, names)
    return [(mark, (x, y)) for mark, _, x, y in _legend_spots(plan)]


def render_png(view: FlankView, names: Sequence[str]) -> bytes:
    """The table of ``view`` as PNG bytes; ``names`` are the seats' display names."""
    plan = _plan(view, names)
    place, width = plan.place, plan.width
    x0, y0, x1, y1 = view.bounds
    cell, left, top = place.cell, place.left, place.top
    grid_w, grid_h = (x1 - x0 + 1) * cell, (y1 - y0 + 1) * cell
    image = Image.new("RGB", (width, plan.height), FRAME)
    draw = ImageDraw.Draw(image)

    _header(draw, view, plan.texts, plan.text_font, plan.line_h)
    draw.rectangle((left, top, left + grid_w - 1, top + grid_h - 1), fill=TABLE)
    for k in range(x1 - x0 + 2):
        x = left + k * cell
        draw.line((x, top, x, top + grid_h), fill=LINE, width=1)
    for k in range(y1 - y0 + 2):
        y = top + k * cell
        draw.line((left, y, left + grid_w, y), fill=LINE, width=1)
    _labels(draw, view, plan.label_font, left, top, cell, plan.edge)

    mover = view.colours[view.to_move] if view.to_move is not None else None
    for (x, y) in view.barred:
        if x0 <= x <= x1 and y0 <= y <= y1:
            _barred(draw, *place.corner(x, y), cell)
    for (x, y) in view.legal:
        _legal(draw, *place.centre(x, y), cell, mover)
    for (x, y), (colour, stoppered) in view.cells.items():
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        _card(draw, *place.corner(x, y), cell, colour, stoppered,
              last=(x, y) == view.last_move, flipped=(x, y) in view.flipped)

    _legend(draw, plan, view, mover)
    y = plan.legend_top + plan.legend_h + 2
    for line in plan.footer:
        draw_text(draw, (width // 2, y + plan.line_h // 2), line, plan.text_font, INK,
                  anchor="mm")
        y += plan.line_h
    return png(image, max_side=None)


# --- the marks, drawn in a cell whose top-left pixel is (cx0, cy0) --------------------------


def _card(draw: ImageDraw.ImageDraw, cx0: int, cy0: int, cell: int, colour: int,
          stoppered: bool, *, last: bool = False, flipped: bool = False) -> None:
    pad = max(2, cell // 10)
    if last:
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
    elif flipped and round(cell * FLIP_MARK) >= 3:
        # The colour it was: the most contrast there is on either disc. (On a cell too
        # small for it, it would hide the disc's own colour.)
        r = round(cell * FLIP_MARK)
        draw.ellipse((mid_x - r, mid_y - r, mid_x + r, mid_y + r), fill=DISC[1 - colour],
                     outline=RIM[1 - colour], width=max(1, cell // 48))


def _legal(draw: ImageDraw.ImageDraw, cx: int, cy: int, cell: int, mover: int | None) -> None:
    r = max(2, cell // 10)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DISC[mover] if mover is not None
                 else DIM)


def _barred(draw: ImageDraw.ImageDraw, cx0: int, cy0: int, cell: int) -> None:
    inset = max(2, cell // 4)
    width = max(1, cell // 16)
    a, b = cx0 + inset, cx0 + cell - inset
    c, d = cy0 + inset, cy0 + cell - inset
    draw.line((a, c, b, d), fill=BARRED, width=width)
    draw.line((a, d, b, c), fill=BARRED, width=width)


# --- the legend ---------------------------------------------------------------------------


def _legend_rows(items: list[tuple[str, str]], key_font: Font, width: int) -> list[LegendRow]:
    """The legend's items laid out in rows no wider than ``width``."""
    rows: list[LegendRow] = []
    used = width + 1
    for mark, words in items:
        size = KEY + 6 + int(length(words, key_font)) + 16
        if used + size > width:
            rows.append([])
            used = 0
        rows[-1].append((mark, words, size))
        used += size
    return rows


def _legend_spots(plan: _Plan) -> list[tuple[str, str, int, int]]:
    """Each legend item's mark and words, and the top-left pixel of its sample cell."""
    spots = []
    top = plan.legend_top
    for row in plan.legend:
        x = (plan.width - sum(size for _, _, size in row) + 16) // 2
        for mark, words, size in row:
            spots.append((mark, words, x, top))
            x += size
        top += KEY + 6
    return spots


def _legend(draw: ImageDraw.ImageDraw, plan: _Plan, view: FlankView, mover: int | None
            ) -> None:
    """The legend's samples and words; the last card and a flipped one in the colour of
    the card laid last, as they are on the grid."""
    laid = view.cells.get(view.last_move, (0, False))[0] if view.last_move else 0
    for mark, words, x, top in _legend_spots(plan):
        draw.rectangle((x, top, x + KEY - 1, top + KEY - 1), fill=TABLE, outline=LINE)
        if mark == "last":
            _card(draw, x, top, KEY, laid, False, last=True)
        elif mark == "flipped":
            _card(draw, x, top, KEY, laid, False, flipped=True)
        elif mark == "stopper":
            _card(draw, x, top, KEY, 0, True)
        elif mark == "legal":
            _legal(draw, x + KEY // 2, top + KEY // 2, KEY, mover)
        elif mark == "barred":
            _barred(draw, x, top, KEY)
        draw_text(draw, (x + KEY + 6, top + KEY // 2), words, plan.key_font, DIM, anchor="lm")


# --- header and coordinates ----------------------------------------------------------------


def _seat_line(view: FlankView, names: Sequence[str], seat: int) -> str:
    who = {"who": names[seat], "mark": MARKS[view.colours[seat]], "showing": view.scores[seat],
           "cards": Phrase("flank.count.cards", count=view.cards_left[seat])}
    if view.stoppers:
        return tr("flank.picture.seat_stoppers", **who,
                  stoppers=Phrase("flank.count.stoppers", count=view.stoppers_left[seat]))
    return tr("flank.picture.seat", **who)


def _header(draw: ImageDraw.ImageDraw, view: FlankView, texts: dict[int, str],
            font: Font, line_h: int) -> None:
    for row, seat in enumerate(play_order(view)):
        y = 6 + row * line_h
        mid = y + line_h // 2
        r = 7
        colour = view.colours[seat]
        draw.ellipse((10, mid - r, 10 + 2 * r, mid + r), fill=DISC[colour], outline=RIM[colour])
        turn = view.to_move == seat
        if turn:
            draw.polygon(((32, mid - 6), (32, mid + 6), (42, mid)), fill=LAST)
        draw_text(draw, (48, mid), texts[seat], font, INK if turn or view.outcome else DIM,
                  anchor="lm")


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
        draw_text(draw, (cx, top - edge // 2), label, font, DIM, anchor="mm")
        draw_text(draw, (cx, bottom + edge // 2), label, font, DIM, anchor="mm")
    for y in range(y0, y1 + 1):
        if (y - y0) % down:
            continue
        cy = top + (y - y0) * cell + cell // 2
        label = row_name(y)
        draw_text(draw, (left - edge // 2, cy), label, font, DIM, anchor="mm")
        draw_text(draw, (right + edge // 2, cy), label, font, DIM, anchor="mm")
