"""Tournament pictures and tables: a round's pairings, the standings and an elimination
bracket as PNGs, and the pairings and standings as plain text for a channel or an embed.
Generic: nothing here names a game.

**Pairings** (:func:`render_pairings`, :data:`WIDTH` = 520 px wide, so a phone shows it
whole at about three quarters of its size) are one row per table: the table's number, then
its players in two columns (two players: "A vs B"; a pod: its 3–6 names two to a line, in
seat order), with the match's label ("Semi-final 1", "Pod 3") in small letters above the
names where the format gives one. A bye is a row without a table number whose second
player is "bye". At most :data:`PAGE_ROWS` tables go in one picture and no picture is
taller than :data:`~bot.pictures.common.MAX_SIDE`; a bigger round is drawn a page at a time
(:func:`pairings_pages` says how many).

**Standings** (:func:`render_standings`, 520 px wide) are one line per player: rank,
name, points, record (W-L-D), OMW%, GW% and OGW% with one decimal. Every column but the
name is as wide as its widest text over the whole standings (so the columns stay put from
one page to the next), and the name takes the rest, cut with an ellipsis. A dropped
player's line is dimmed and tagged "dropped"; a tie broken by no figure (the line's
``note``, e.g. "drawn at random") puts a mark after the rank, explained under the table.
:data:`PAGE_ROWS` players a page (:func:`standings_pages`).

**A bracket** (:func:`render_bracket`) is drawn left to right, one column per round, each
match a box of two slots (seed, name, games won where known) joined by lines to the match
its winner plays next; a winner's slot is highlighted and drawn bold, a bye says "bye", a
slot not yet known is empty, and the champion stands at the right. A double elimination
bracket has the winners' bracket above, the losers' bracket below and the grand final (and
its reset, where the bracket has one) to the right of both. Boxes are a fixed height; they
narrow as rounds are added so that the picture stays within :data:`BRACKET_MAX_WIDTH`.
Up to 64 entrants every match is drawn (a 64-player single elimination bracket is
1,380 × 1,310 px, a double one 1,581 × 1,994: taller than
:data:`~bot.pictures.common.MAX_SIDE`, and not scaled down, since its names would not stay
legible). Beyond that only the last rounds are: from the first winners' round of at most
:data:`MOST_WINNERS_SHOWN` matches and the first losers' round of at most
:data:`MOST_LOSERS_SHOWN`, and the picture says which rounds it leaves out. The input is
:class:`Bracket`, plain display data: see its docstring for the conventions (round
numbers, positions, byes).

**Text** (:func:`pairings_text`, :func:`standings_text`) is a code block of lines at most
:data:`TEXT_WIDTH` cells wide, counted as a monospace font shows them (a CJK letter or an
emoji counts two: :func:`cells`), so that a phone shows each line unwrapped; names keep
their own letters there (text is searchable), only backticks and control characters
replaced. A page of text holds at most :data:`TEXT_LINES` lines (a page count is one more
argument, as for the pictures), so it always fits one 2,000-character message.

Every text in a picture goes through :func:`bot.pictures.common.draw_text` (the built-in
font, names :func:`~bot.pictures.common.clean`\\ ed), so emoji or CJK names come out with
stand-ins, never as boxes.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.i18n import current, say, tr, trn
from bot.i18n import number as written
from bot.pictures.common import MAX_SIDE, Colour, Font, clean, draw_text, font, png, wrap
from bot.tournaments.terms import STANDING_HEADS, head_words
from rules.phrases import Words
from rules.tournament.model import RoundPlan, Standing

# --- sizes ---------------------------------------------------------------------------------

WIDTH = 520
"""Width of the pairings and standings pictures: the wide end of what Discord shows a
phone unscaled-looking (400–550 px), so 15 px names still read as about 11.5 px."""
PAD = 12
PAGE_ROWS = 32
"""Most tables (pairings) or players (standings) in one picture."""
MAX_TEXT = 200
"""Characters of a title or name kept before it is fitted to a width (:func:`fit` trims
one character at a time, so a 10,000-character name would be slow)."""

NAME_SIZE = 15
"""Names and figures: 15 px reads as 11.5 px once a phone scales 520 px to 400."""
SMALL_SIZE = 12
"""Column headers, labels, tags and notes."""
TITLE_SIZE = 20
SUBTITLE_SIZE = 14
HEAD_H = PAD + 50
"""Title and subtitle lines."""
COLUMN_HEAD_H = 20

LINE_H = 22
"""One line of names in a pairings row, or one standings line."""
LABEL_H = 16
"""A match's label above its names."""
ROW_PAD = 6
TABLE_W = 44
"""The table number's column (wide enough for "Table" and for three digits)."""
VS_W = 44
"""Between the two players of a two-player table, where "vs" is written."""
PAIR_COLUMN_W = (WIDTH - 2 * PAD - TABLE_W - VS_W) // 2
"""Each player's column in a pairings row (204 px)."""
CELL_GAP = 10
"""Space between standings columns."""
MIN_NAME_W = 100
"""The least a standings name keeps, however wide the figures are."""

# Brackets.
BRACKET_MAX_WIDTH = 1600
"""Widest a bracket picture grows: boxes narrow (down to :data:`BOX_MIN_W`) to stay
within it."""
BOX_MAX_W = 180
BOX_MIN_W = 100
GAP_X = 16
"""Between columns of a bracket: where the lines joining matches run."""
SLOT_H = 16
BOX_H = 2 * SLOT_H
GAP_Y = 6
PITCH = BOX_H + GAP_Y
"""Height each match of a bracket's first drawn round takes."""
SLOT_SIZE = 13
SECTION_GAP = 16
SECTION_TITLE_H = 20
MOST_WINNERS_SHOWN = 32
"""Most matches a drawn winners' round (or single elimination round) has: 64 entrants'
first round. Earlier rounds of a bigger bracket are left out."""
MOST_LOSERS_SHOWN = 16
"""Most matches a drawn losers' round has (64 entrants' first two)."""

# Text.
TEXT_WIDTH = 40
"""Widest line of the text versions, in monospace cells: what a phone shows of a code
block without wrapping."""
TEXT_LINES = 44
"""Most lines in one page of text (with the fences, some 1,900 characters: one message)."""
TEXT_NAME_W = 16
"""Each player's column in the pairings text."""

# --- colours -------------------------------------------------------------------------------

BG = (22, 26, 40)
"""The night blue of the other pictures."""
STRIPE = (29, 34, 52)
"""Every other row, so that a line is easy to follow across."""
INK = (236, 238, 244)
DIM = (146, 152, 172)
FAINT = (92, 98, 122)
GOLD = (246, 192, 52)
DROPPED = (214, 110, 100)
BOX = (34, 40, 60)
BOX_EDGE = (70, 78, 104)
WINNER_FILL = (72, 62, 24)
"""A winner's slot: a dark gold behind gold letters."""
LINE = (108, 118, 150)
WON_LINE = (196, 160, 60)
"""A line from a decided match: the path the winner took."""

# --- input ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    """One table of a round's pairings, as shown.

    ``players`` are display names in seat order (2 for a match, 3–6 for a pod); ``None``
    is a bye, and so is a row of one player. ``table`` is ``None`` for a bye (byes are
    not played at a table).
    """

    table: int | None
    players: tuple[str | None, ...]
    label: str = ""

    @property
    def is_bye(self) -> bool:
        """Whether this row is a player without an opponent."""
        return len(self.players) < 2 or None in self.players


def table_rows(plan: RoundPlan, names: Mapping[int, str]) -> list[TableRow]:
    """A round's pairings as rows to show: the real pairings numbered 1, 2, … in the plan's
    order with their labels, then the byes (no table number).

    >>> for row in table_rows(RoundPlan(2, ((3,), (1, 2))), {1: "Ada", 2: "Bo", 3: "Cy"}):
    ...     print(row)
    TableRow(table=1, players=('Ada', 'Bo'), label='')
    TableRow(table=None, players=('Cy', None), label='')
    """
    rows, byes = [], []
    labels = plan.labels or ("",) * len(plan.pairings)
    for pairing, label in zip(plan.pairings, labels, strict=True):
        if len(pairing) == 1:
            byes.append(TableRow(None, (_name(names, pairing[0]), None), label))
        else:
            rows.append(TableRow(len(rows) + 1, tuple(_name(names, p) for p in pairing),
                                 label))
    return rows + byes


Side = Literal["winners", "losers", "final"]


@dataclass(frozen=True)
class Slot:
    """One side of a bracket match: a player (display name, seed where known), a bye, or
    nobody yet (the default, drawn empty)."""

    name: str | None = None
    seed: int | None = None
    bye: bool = False


TBD = Slot()
"""A slot whose player is not known yet."""
BYE = Slot(bye=True)


@dataclass(frozen=True)
class BracketMatch:
    """One match of an elimination bracket, as shown.

    ``side`` is ``"winners"`` (every match of a single elimination bracket),
    ``"losers"``, or ``"final"`` (the grand final is round 1, the bracket reset round 2).
    ``round`` counts from 1 within its side. ``index`` is the match's place from the top
    in its round *of the full bracket*: round 1 of a winners' bracket for 12 players has
    8 places (4 of them byes, given as matches against :data:`BYE` with their winner
    set), and match ``i`` of a round sends its winner to match ``i * n2 // n1`` of the
    next (``n1``, ``n2`` the two rounds' places: ``i // 2`` when the next round has half
    as many, ``i`` when it has as many, as in a losers' bracket's rounds where players
    dropping from the winners' bracket come in). ``winner`` is the index in ``slots`` of
    who won, ``None`` while undecided; ``score`` each slot's games won, where known.
    ``label`` ("Semi-final 1") is for the pairings; the bracket names its columns.
    """

    round: int
    index: int
    slots: tuple[Slot, Slot]
    winner: int | None = None
    side: Side = "winners"
    label: str = ""
    score: tuple[int, int] | None = None

    @property
    def key(self) -> tuple[Side, int, int]:
        """Where the match is: side, round, index."""
        return self.side, self.round, self.index


@dataclass(frozen=True)
class Bracket:
    """The matches of an elimination bracket (see :class:`BracketMatch`); a double
    elimination bracket is one that has losers' or final matches."""

    matches: tuple[BracketMatch, ...]

    @property
    def double(self) -> bool:
        """Whether it is a double elimination bracket."""
        return any(m.side != "winners" for m in self.matches)


def _name(names: Mapping[int, str], entrant: int) -> str:
    """``entrant``'s display name, or "Player N" when ``names`` has none (or a blank one)."""
    name = names.get(entrant, "")
    return name if name.strip() else tr("tournaments.picture.unnamed", number=entrant)


# --- shared drawing helpers ----------------------------------------------------------------


def _paged(page: int, pages: int) -> None:
    """Refuse a page that does not exist (pages count from 1)."""
    if not 1 <= page <= pages:
        raise ValueError(f"page {page} of {pages}")


def _page_word(page: int, pages: int) -> str:
    return tr("tournaments.picture.page", page=page, pages=pages) if pages > 1 else ""


def _header(draw: ImageDraw.ImageDraw, width: int, title: str, subtitle: str) -> None:
    """The title and, under it in grey, the subtitle, each cut to the width."""
    big, small = font(TITLE_SIZE), font(SUBTITLE_SIZE)
    draw_text(draw, (PAD, PAD), _fitted(title, big, width - 2 * PAD), big, INK)
    draw_text(draw, (PAD, PAD + 28), _fitted(subtitle, small, width - 2 * PAD), small, DIM)


@lru_cache(maxsize=4096)
def _fitted(text: str, face: Font, width: float) -> str:
    """``text`` (first cut to :data:`MAX_TEXT` characters) as :func:`fit` fits it to
    ``width``, found by halving instead of one character at a time: a bracket fits each
    name in every round it reaches, and measuring is most of a picture's time.

    >>> from bot.pictures.common import fit
    >>> words = "Ada — the first programmer"
    >>> _fitted(words, font(16), 80), _fitted(words, font(16), 80) == fit(words, font(16), 80)
    ('Ada - the…', True)
    """
    text = clean(text[:MAX_TEXT])
    if face.getlength(text) <= width:
        return text
    lo, hi = 0, len(text) - 1  # the longest start that fits with "…" is text[:lo]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if face.getlength(text[:mid] + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


# --- pairings ------------------------------------------------------------------------------


def _row_lines(row: TableRow) -> int:
    """Lines of names a pairings row takes: one for a match or a bye, a line per two
    names for a pod."""
    return max(1, math.ceil(len(row.players) / 2))


def _row_height(row: TableRow) -> int:
    return _row_lines(row) * LINE_H + ROW_PAD + (LABEL_H if row.label else 0)


def _pairing_pages(rows: Sequence[TableRow]) -> list[list[TableRow]]:
    """``rows`` cut into pictures: at most :data:`PAGE_ROWS` tables each, none taller
    than :data:`MAX_SIDE` (a row is never split)."""
    room = MAX_SIDE - HEAD_H - COLUMN_HEAD_H - PAD
    pages: list[list[TableRow]] = [[]]
    used = 0
    for row in rows:
        height = _row_height(row)
        if pages[-1] and (len(pages[-1]) >= PAGE_ROWS or used + height > room):
            pages.append([])
            used = 0
        pages[-1].append(row)
        used += height
    return pages


def pairings_pages(rows: Sequence[TableRow], *, text: bool = False) -> int:
    """How many pages :func:`render_pairings` (or, with ``text``, :func:`pairings_text`)
    shows ``rows`` on (1 for none).

    >>> rows = [TableRow(k, ("A", "B")) for k in range(1, 51)]
    >>> pairings_pages(rows), pairings_pages(rows, text=True)
    (2, 2)
    """
    if text:
        return len(_text_pages([_pairing_text_block(row) for row in rows], 4))
    return len(_pairing_pages(rows))


def _any_pod(rows: Sequence[TableRow]) -> bool:
    return any(len(row.players) > 2 for row in rows)


def draw_pairings(title: str, round_no: int, rows: Sequence[TableRow],
                  page: int = 1) -> Image.Image:
    """The picture :func:`render_pairings` sends."""
    pages = _pairing_pages(rows)
    _paged(page, len(pages))
    shown = pages[page - 1]
    height = HEAD_H + COLUMN_HEAD_H + sum(_row_height(r) for r in shown) + PAD
    if not shown:
        height += LINE_H
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    _header(draw, WIDTH, title, tr("tournaments.picture.pairings", round=round_no)
            + _page_word(page, len(pages)))

    small, face = font(SMALL_SIZE), font(NAME_SIZE)
    left = PAD + TABLE_W
    right = left + PAIR_COLUMN_W + VS_W
    y = HEAD_H
    draw_text(draw, (PAD, y + 2), _fitted(tr("tournaments.picture.table"), small,
                                          TABLE_W - 4), small, DIM)
    if _any_pod(rows):
        draw_text(draw, (left, y + 2), _fitted(tr("tournaments.picture.players"), small,
                                               WIDTH - PAD - left), small, DIM)
    else:
        draw_text(draw, (left, y + 2), _fitted(tr("tournaments.picture.player"), small,
                                               PAIR_COLUMN_W), small, DIM)
        draw_text(draw, (right, y + 2), _fitted(tr("tournaments.picture.opponent"), small,
                                                PAIR_COLUMN_W), small, DIM)
    y += COLUMN_HEAD_H
    if not shown:
        draw_text(draw, (PAD, y + 3), _fitted(tr("tournaments.picture.no_pairings"), face,
                                              WIDTH - 2 * PAD), face, DIM)
    for k, row in enumerate(shown):
        height = _row_height(row)
        if k % 2 == 0:
            draw.rectangle((0, y, WIDTH, y + height - 1), fill=STRIPE)
        top = y + ROW_PAD // 2
        if row.table is not None:
            draw_text(draw, (PAD, top + (LABEL_H if row.label else 0) + 3), str(row.table),
                      face, INK)
        if row.label:
            draw_text(draw, (left, top + 1), _fitted(row.label, small, WIDTH - PAD - left),
                      small, GOLD)
            top += LABEL_H
        players: list[str | None] = list(row.players) + ([None] if len(row.players) < 2 else [])
        for n, player in enumerate(players):
            line, column = divmod(n, 2)
            x = left if column == 0 else right
            yy = top + line * LINE_H + 3
            if player is None:
                draw_text(draw, (x, yy), _fitted(tr("tournaments.picture.bye"), face,
                                                 PAIR_COLUMN_W), face, DIM)
            else:
                draw_text(draw, (x, yy), _fitted(player, face, PAIR_COLUMN_W), face, INK)
        if len(players) == 2 and not row.is_bye:
            draw_text(draw, (left + PAIR_COLUMN_W + VS_W / 2, top + 3 + LINE_H / 2 - 2),
                      _fitted(tr("tournaments.picture.vs"), small, VS_W - 8),
                      small, FAINT, anchor="mm")
        y += height
    return image


def render_pairings(title: str, round_no: int, rows: Sequence[TableRow],
                    page: int = 1) -> bytes:
    """PNG of round ``round_no``'s pairings under ``title``: one row per table (see the
    module's docstring), :data:`WIDTH` px wide. ``page`` counts from 1
    (:func:`pairings_pages`); :class:`ValueError` for a page that does not exist."""
    return png(draw_pairings(title, round_no, rows, page))


# --- standings -----------------------------------------------------------------------------


def percent(fraction: float) -> str:
    """A fraction as the standings write it: a percentage with one decimal, written
    the way the locale spoken writes numbers ("66,7" in Portuguese).

    >>> percent(2 / 3), percent(0.33), percent(1.0), percent(0.0)
    ('66.7', '33.0', '100.0', '0.0')
    >>> from bot.i18n import speaking
    >>> with speaking("pt_BR"):
    ...     percent(2 / 3)
    '66,7'
    """
    return f"{100 * fraction:.1f}".replace(".", _decimal_mark(current()))


@lru_cache(maxsize=16)
def _decimal_mark(locale: str) -> str:
    # Percentages never reach 1,000: only the decimal mark differs between locales
    # (and a standings page writes thousands of them).
    return written(1.5, locale, digits=1)[1]


def note_marks(standings: Sequence[Standing]) -> dict[Words, str]:
    """A mark for each different tie note, in order of first appearance: ``*``, ``**``…"""
    marks: dict[Words, str] = {}
    for line in standings:
        if line.note and line.note not in marks:
            marks[line.note] = "*" * (len(marks) + 1)
    return marks


def standing_cells(line: Standing, marks: Mapping[Words, str]) -> tuple[str, ...]:
    """A standings line's texts but the name, in :data:`STANDING_HEADS` order (the name's
    place holds ``""``).

    >>> standing_cells(Standing(2, 7, 6, 2, 1, 0, 2 / 3, 0.6, 0.5), {})
    ('2', '', '6', '2-1-0', '66.7', '60.0', '50.0')
    """
    return (f"{line.rank}{marks.get(line.note, '')}", "", str(line.points), line.record,
            percent(line.omw), percent(line.gw), percent(line.ogw))


@dataclass(frozen=True)
class StandingsColumns:
    """Where each standings column lies: its left edge and width, in
    :data:`STANDING_HEADS` order."""

    lefts: tuple[float, ...]
    widths: tuple[float, ...]


def standings_columns(standings: Sequence[Standing]) -> StandingsColumns:
    """The columns of :func:`render_standings` for ``standings``: each figure's column as
    wide as its widest text (header or any line's) plus :data:`CELL_GAP`, the name the
    rest (at least :data:`MIN_NAME_W`)."""
    face, small = font(NAME_SIZE), font(SMALL_SIZE)
    marks = note_marks(standings)
    widths = [small.getlength(head_words(head)) + CELL_GAP for head in STANDING_HEADS]
    for line in standings:
        for k, cell in enumerate(standing_cells(line, marks)):
            widths[k] = max(widths[k], face.getlength(cell) + CELL_GAP)
    widths[1] = max(MIN_NAME_W, WIDTH - 2 * PAD - (sum(widths) - widths[1]))
    lefts, x = [], float(PAD)
    for w in widths:
        lefts.append(x)
        x += w
    return StandingsColumns(tuple(lefts), tuple(widths))


def standings_pages(standings: Sequence[Standing], *, text: bool = False) -> int:
    """How many pages :func:`render_standings` (or, with ``text``, :func:`standings_text`)
    shows ``standings`` on (1 for none)."""
    if text:
        return len(_standings_text_pages(standings, {}))
    return max(1, math.ceil(len(standings) / PAGE_ROWS))


def draw_standings(title: str, standings: Sequence[Standing], names: Mapping[int, str],
                   page: int = 1) -> Image.Image:
    """The picture :func:`render_standings` sends."""
    pages = standings_pages(standings)
    _paged(page, pages)
    shown = standings[(page - 1) * PAGE_ROWS: page * PAGE_ROWS]
    marks = note_marks(standings)
    small, face = font(SMALL_SIZE), font(NAME_SIZE)
    notes = _footnotes(shown, marks, small)
    height = (HEAD_H + COLUMN_HEAD_H + max(1, len(shown)) * LINE_H + PAD
              + (len(notes) * 16 + 6 if notes else 0))
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    _header(draw, WIDTH, title, tr("tournaments.picture.standings") + _page_word(page, pages))
    columns = standings_columns(standings)
    y = HEAD_H
    for k, head in enumerate(STANDING_HEADS):
        words = head_words(head)
        if k == 1:
            words = _fitted(words, small, columns.widths[1] - CELL_GAP)
        _cell(draw, columns, k, y + 2, words, small, DIM)
    y += COLUMN_HEAD_H
    if not shown:
        draw_text(draw, (PAD, y + 3), _fitted(tr("tournaments.picture.no_players"), face,
                                              WIDTH - 2 * PAD), face, DIM)
    tag = _fitted(tr("tournaments.picture.dropped"), small, MIN_NAME_W / 2)
    tag_w = small.getlength(tag) + 6
    for n, line in enumerate(shown):
        if n % 2 == 0:
            draw.rectangle((0, y, WIDTH, y + LINE_H - 1), fill=STRIPE)
        colour = DIM if line.dropped else INK
        for k, cell in enumerate(standing_cells(line, marks)):
            if k != 1:
                _cell(draw, columns, k, y + 3, cell, face, colour)
        room = columns.widths[1] - CELL_GAP - (tag_w if line.dropped else 0)
        draw_text(draw, (columns.lefts[1], y + 3),
                  _fitted(_name(names, line.entrant), face, room), face, colour)
        if line.dropped:
            draw_text(draw, (columns.lefts[1] + columns.widths[1] - CELL_GAP, y + LINE_H / 2),
                      tag, small, DROPPED, anchor="rm")
        y += LINE_H
    y += PAD // 2
    for note in notes:
        draw_text(draw, (PAD, y), note, small, DIM)
        y += 16
    return image


def _cell(draw: ImageDraw.ImageDraw, columns: StandingsColumns, k: int, y: float, text: str,
          face: Font, colour: Colour) -> None:
    """Column ``k``'s text: the name left-aligned, figures right-aligned (so that digits
    line up), each inside its column with :data:`CELL_GAP` before the next."""
    if k == 1:
        draw_text(draw, (columns.lefts[k], y), text, face, colour)
    else:
        draw_text(draw, (columns.lefts[k] + columns.widths[k] - CELL_GAP, y), text, face,
                  colour, anchor="ra")


def _footnotes(shown: Sequence[Standing], marks: Mapping[Words, str],
               face: Font) -> list[str]:
    """The lines explaining the tie marks of ``shown``: each mark, its note, the ranks it
    is on, wrapped to the width."""
    lines: list[str] = []
    for note, mark in marks.items():
        ranks = [str(line.rank) for line in shown if line.note == note]
        if ranks:
            lines += wrap(trn("tournaments.picture.tie_note", len(ranks), mark=mark,
                              note=say(note), ranks=", ".join(ranks)), face, WIDTH - 2 * PAD)
    return lines


def render_standings(title: str, standings: Sequence[Standing], names: Mapping[int, str],
                     page: int = 1) -> bytes:
    """PNG of ``standings`` (best first, as a format ranks them) under ``title``, names
    from ``names`` (entrant id → display name; "Player N" where missing), :data:`WIDTH`
    px wide, :data:`PAGE_ROWS` lines a page; see the module's docstring. ``page`` counts
    from 1 (:func:`standings_pages`); :class:`ValueError` for one that does not exist."""
    return png(draw_standings(title, standings, names, page))


# --- brackets ------------------------------------------------------------------------------


Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class BracketLayout:
    """Where everything of a bracket picture goes.

    ``boxes`` holds each drawn match's box by :attr:`BracketMatch.key`; ``links`` the
    lines joining a match to the next (from key, to key); ``champion`` the champion's
    box; ``hidden`` the rounds left out, by side (first round numbers drawn are one more).
    """

    width: int
    height: int
    box_w: int
    boxes: dict[tuple[Side, int, int], Box]
    links: tuple[tuple[tuple[Side, int, int], tuple[Side, int, int]], ...]
    champion: Box
    column_heads: tuple[tuple[float, float, str], ...]
    """Each column's (or final box's) name and where it is written (its centre x, top y)."""
    hidden: dict[Side, int]


def _rounds(bracket: Bracket, side: Side) -> dict[int, dict[int, BracketMatch]]:
    found: dict[int, dict[int, BracketMatch]] = {}
    for match in bracket.matches:
        if match.side == side:
            found.setdefault(match.round, {})[match.index] = match
    return found


def _check(bracket: Bracket) -> None:
    """:class:`ValueError` for a bracket that cannot be drawn."""
    if not any(m.side == "winners" for m in bracket.matches):
        raise ValueError("a bracket needs winners' matches")
    seen = set()
    for match in bracket.matches:
        if match.key in seen:
            raise ValueError(f"two matches at {match.key}")
        seen.add(match.key)
        if match.round < 1 or match.index < 0:
            raise ValueError(f"no such place in a bracket: {match.key}")
        if match.winner not in (None, 0, 1):
            raise ValueError(f"winner {match.winner} of {match.key}")


def _places(rounds: Mapping[int, Mapping[int, BracketMatch]], side: Side) -> dict[int, int]:
    """How many places each round of a side has: a winners' round twice as many as the
    next (the last has one), a losers' round as many as its matches say."""
    last = max(rounds)
    places = {}
    for number in range(1, last + 1):
        matches = rounds.get(number, {})
        found = max([len(matches), *(i + 1 for i in matches)])
        places[number] = max(found, 2 ** (last - number)) if side == "winners" else found
    return places


def _shown_from(places: Mapping[int, int], most: int) -> int:
    """The first round drawn: the first after the last one with more than ``most``
    places (the last round, whatever it has)."""
    too_big = [number for number, count in places.items() if count > most]
    return min(max(too_big) + 1, max(places)) if too_big else 1


def _column_ys(counts: Sequence[int], top: float) -> list[list[float]]:
    """The centre heights of each column's places: the first column's evenly
    :data:`PITCH` apart, every later place midway between the places that feed it."""
    ys = [[top + (i + 0.5) * PITCH for i in range(counts[0])]] if counts else []
    for k in range(1, len(counts)):
        column = []
        for j in range(counts[k]):
            feeders = [ys[k - 1][i] for i in range(counts[k - 1])
                       if i * counts[k] // counts[k - 1] == j]
            column.append(sum(feeders) / len(feeders) if feeders
                          else top + (j + 0.5) * PITCH * counts[0] / counts[k])
        ys.append(column)
    return ys


def _round_name(number: int, last: int, side: Side, double: bool) -> str:
    """A column's name: "Final", "Semi-finals", "Quarter-finals" or "Round N" (a
    losers' bracket's last round is the "Losers' final", a winners' bracket's, in double
    elimination, the "Winners' final").

    >>> [_round_name(n, 4, "winners", False) for n in (1, 2, 3, 4)]
    ['Round 1', 'Quarter-finals', 'Semi-finals', 'Final']
    """
    if side == "losers" and number == last:
        return tr("tournaments.label.losers_final")
    if side == "losers" or last - number > 2:
        return tr("tournaments.picture.round", round=number)
    if last == number:
        return tr("tournaments.label.winners_final") if double \
            else tr("tournaments.label.final")
    if last - number == 1:
        return tr("tournaments.picture.semi_finals")
    return tr("tournaments.picture.quarter_finals")


def bracket_layout(bracket: Bracket) -> BracketLayout:
    """Where :func:`render_bracket` draws each match, line and column name of
    ``bracket`` (see the module's docstring); :class:`ValueError` for a bracket without
    winners' matches, two matches in one place, or a winner other than 0, 1 or ``None``."""
    _check(bracket)
    double = bracket.double
    sides: dict[Side, dict[int, dict[int, BracketMatch]]] = {
        side: _rounds(bracket, side) for side in ("winners", "losers", "final")}
    places = {side: _places(sides[side], side) for side in ("winners", "losers")
              if sides[side]}
    first = {"winners": _shown_from(places["winners"], MOST_WINNERS_SHOWN)}
    if "losers" in places:
        first["losers"] = _shown_from(places["losers"], MOST_LOSERS_SHOWN)
    drawn = {side: [n for n in sorted(places[side]) if n >= first[side]] for side in places}
    finals = sorted(sides["final"])

    columns = max(len(rounds) for rounds in drawn.values()) + len(finals) + 1
    box_w = int(min(BOX_MAX_W, max(BOX_MIN_W, (BRACKET_MAX_WIDTH - 2 * PAD) // columns
                                   - GAP_X)))
    step = box_w + GAP_X
    width = 2 * PAD + columns * step - GAP_X

    def x_of(column: int) -> int:
        return PAD + column * step

    boxes: dict[tuple[Side, int, int], Box] = {}
    links: list[tuple[tuple[Side, int, int], tuple[Side, int, int]]] = []
    heads: list[tuple[float, float, str]] = []
    centre: dict[tuple[Side, int, int], float] = {}
    top = float(HEAD_H)
    for side in ("winners", "losers"):
        if side not in drawn:
            continue
        numbers = drawn[side]
        if double:
            top += SECTION_TITLE_H
        counts = [places[side][n] for n in numbers]
        ys = _column_ys(counts, top + COLUMN_HEAD_H)
        for column, number in enumerate(numbers):
            heads.append((x_of(column) + box_w / 2, top,
                          _round_name(number, max(places[side]), side, double)))
            for index, y in enumerate(ys[column]):
                centre[(side, number, index)] = y
                if index in sides[side].get(number, {}):
                    boxes[(side, number, index)] = (x_of(column), round(y - BOX_H / 2),
                                                    x_of(column) + box_w, round(y + BOX_H / 2))
            if column + 1 < len(numbers):
                for index in sides[side].get(number, {}):
                    target = (side, numbers[column + 1],
                              index * counts[column + 1] // counts[column])
                    if target[2] in sides[side].get(target[1], {}):
                        links.append(((side, number, index), target))
        top += COLUMN_HEAD_H + counts[0] * PITCH + SECTION_GAP

    # The finals: right of both brackets, midway between the two brackets' finals.
    last_column = max(len(rounds) for rounds in drawn.values())
    ends = [(side, drawn[side][-1], 0) for side in drawn]
    y_final = sum(centre[end] for end in ends) / len(ends)
    previous = [end for end in ends if end in boxes]
    for k, number in enumerate(finals):
        key: tuple[Side, int, int] = ("final", number, 0)
        x = x_of(last_column + k)
        boxes[key] = (x, round(y_final - BOX_H / 2), x + box_w, round(y_final + BOX_H / 2))
        heads.append((x + box_w / 2, y_final - BOX_H / 2 - COLUMN_HEAD_H + 2,
                      tr("tournaments.label.grand_final") if number == 1
                      else tr("tournaments.picture.reset")))
        links += [(end, key) for end in previous]
        previous = [key]
    x = x_of(columns - 1)
    champion = (x, round(y_final - BOX_H / 2), x + box_w, round(y_final + BOX_H / 2))
    heads.append((x + box_w / 2, y_final - BOX_H / 2 - COLUMN_HEAD_H + 2,
                  tr("tournaments.picture.champion")))
    height = int(max(top - SECTION_GAP, champion[3]) + PAD)
    hidden: dict[Side, int] = {side: first[side] - 1 for side in first}
    return BracketLayout(width, height, box_w, boxes, tuple(links), champion, tuple(heads),
                         hidden)


def champion_of(bracket: Bracket) -> str | None:
    """The champion's name once the last match played decides it: the winner of the
    last decided final (or, in single elimination, of the final) when no later match
    has a player in it yet; ``None`` until then.

    >>> final = BracketMatch(1, 0, (Slot("Ada"), Slot("Bo")), winner=1)
    >>> champion_of(Bracket((final,)))
    'Bo'
    """
    side: Side = "final" if any(m.side == "final" for m in bracket.matches) else "winners"
    last = sorted((m for m in bracket.matches if m.side == side), key=lambda m: m.round)
    if side == "winners":
        last = [m for m in last if m.round == last[-1].round and m.index == 0]
    for k in range(len(last) - 1, -1, -1):
        match = last[k]
        if match.winner is not None:
            later = last[k + 1:]
            if any(s.name is not None for m in later for s in m.slots):
                return None
            return match.slots[match.winner].name
    return None


def _subtitle(bracket: Bracket, layout: BracketLayout) -> str:
    """"Single elimination · 64 entrants", and which rounds are left out, if any."""
    first_round = [m for m in bracket.matches if m.side == "winners" and m.round == 1]
    entrants = sum(1 for m in first_round for s in m.slots if s.name is not None)
    kind = (tr("tournaments.picture.double") if bracket.double
            else tr("tournaments.picture.single"))
    words = trn("tournaments.picture.entrants", entrants, kind=kind) if entrants else kind
    left_out = []
    for side, count in layout.hidden.items():
        if not count:
            continue
        if not bracket.double:
            left_out.append(trn("tournaments.picture.hidden", count))
        elif side == "winners":
            left_out.append(trn("tournaments.picture.hidden_winners", count))
        else:
            left_out.append(trn("tournaments.picture.hidden_losers", count))
    if len(left_out) == 1:
        words = tr("tournaments.picture.not_shown", words=words, rounds=left_out[0])
    elif left_out:
        words = tr("tournaments.picture.not_shown", words=words, rounds=tr(
            "tournaments.picture.and", first=left_out[0], second=left_out[1]))
    return words


def draw_bracket(title: str, bracket: Bracket) -> Image.Image:
    """The picture :func:`render_bracket` sends."""
    layout = bracket_layout(bracket)
    image = Image.new("RGB", (layout.width, layout.height), BG)
    draw = ImageDraw.Draw(image)
    _header(draw, layout.width, title, _subtitle(bracket, layout))
    small = font(SMALL_SIZE)
    by_key = {m.key: m for m in bracket.matches}

    if bracket.double:
        tops = {side: min(box[1] for key, box in layout.boxes.items() if key[0] == side)
                for side in ("winners", "losers")
                if any(key[0] == side for key in layout.boxes)}
        for side, box_top in tops.items():
            words = (tr("tournaments.picture.winners_bracket") if side == "winners"
                     else tr("tournaments.picture.losers_bracket"))
            draw_text(draw, (PAD, box_top - COLUMN_HEAD_H - SECTION_TITLE_H + 2),
                      _fitted(words, font(SUBTITLE_SIZE), layout.width - 2 * PAD),
                      font(SUBTITLE_SIZE), GOLD)
    for x, y, words in layout.column_heads:
        draw_text(draw, (x, y + 2), _fitted(words, small, layout.box_w), small, DIM,
                  anchor="ma")

    for start, end in layout.links:
        _link(draw, layout.boxes[start], layout.boxes[end],
              WON_LINE if by_key[start].winner is not None else LINE)
    champion = champion_of(bracket)
    finals = [key for key in layout.boxes if key[0] == "final"]
    last = max(finals) if finals else ("winners", max(
        m.round for m in bracket.matches if m.side == "winners"), 0)
    if last in layout.boxes:  # gold only from a match played: not from a reset not needed
        _link(draw, layout.boxes[last], layout.champion,
              WON_LINE if by_key[last].winner is not None else LINE)

    seeds = [s.seed for m in bracket.matches for s in m.slots if s.seed is not None]
    seed_w = font(SMALL_SIZE).getlength(str(max(seeds))) + 3 if seeds else 0
    scores = [str(n) for m in bracket.matches if m.score is not None for n in m.score]
    score_w = max((font(SMALL_SIZE).getlength(n) for n in scores), default=-4) + 4
    for key, box in layout.boxes.items():
        _match(draw, box, by_key[key], seed_w, score_w)

    x0, y0, x1, y1 = layout.champion
    draw.rounded_rectangle(layout.champion, radius=4, fill=BOX,
                           outline=GOLD if champion else BOX_EDGE, width=2)
    if champion:
        face = font(NAME_SIZE)
        draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), _fitted(champion, face, x1 - x0 - 10),
                  face, GOLD, anchor="mm", stroke_width=0.4, stroke_fill=GOLD)
    return image


def _link(draw: ImageDraw.ImageDraw, start: Box, end: Box, colour: Colour) -> None:
    """A line from ``start``'s right edge to ``end``'s left edge: across, down (or up)
    in the gap just before ``end``, across again."""
    y0, y1 = (start[1] + start[3]) / 2, (end[1] + end[3]) / 2
    x0, x1 = start[2], end[0]
    xm = x1 - GAP_X / 2
    draw.line([(x0, y0), (xm, y0), (xm, y1), (x1, y1)], fill=colour, width=2)


def _match(draw: ImageDraw.ImageDraw, box: Box, match: BracketMatch, seed_w: float,
           score_w: float) -> None:
    """One match's box: two slots, the winner's highlighted, each with its seed, its
    name (or "bye", or nothing while unknown) and its games won."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=3, fill=BOX, outline=BOX_EDGE)
    face, small = font(SLOT_SIZE), font(SMALL_SIZE)
    for k, slot in enumerate(match.slots):
        top = y0 + k * SLOT_H
        won = match.winner == k
        lost = match.winner is not None and not won
        if won:
            draw.rectangle((x0 + 1, top + 1, x1 - 1, top + SLOT_H - 1), fill=WINNER_FILL)
        cy = top + SLOT_H / 2
        if slot.seed is not None:
            draw_text(draw, (x0 + seed_w, cy), str(slot.seed), small, FAINT, anchor="rm")
        x = x0 + seed_w + 4
        room = x1 - 3 - score_w - x
        if slot.bye:
            draw_text(draw, (x, cy), _fitted(tr("tournaments.picture.bye"), face, room), face,
                      FAINT, anchor="lm")
        elif slot.name is not None:
            colour = GOLD if won else DIM if lost else INK
            bold = {"stroke_width": 0.4, "stroke_fill": GOLD} if won else {}
            draw_text(draw, (x, cy), _fitted(slot.name, face, room), face, colour,
                      anchor="lm", **bold)
        if match.score is not None:
            draw_text(draw, (x1 - 3, cy), str(match.score[k]), small,
                      GOLD if won else DIM, anchor="rm")
    draw.line([(x0 + 1, y0 + SLOT_H), (x1 - 1, y0 + SLOT_H)], fill=BOX_EDGE)


def render_bracket(title: str, bracket: Bracket) -> bytes:
    """PNG of an elimination bracket under ``title`` (see the module's docstring): at
    most :data:`BRACKET_MAX_WIDTH` px wide, never scaled down (its height follows the
    first round drawn: 1,310 px for 64 entrants, 1,994 for 64 in double elimination).
    :class:`ValueError` as :func:`bracket_layout` says."""
    return png(draw_bracket(title, bracket), max_side=None)


# --- text ----------------------------------------------------------------------------------


def cells(text: str) -> int:
    """How many monospace cells ``text`` takes: two for a wide character (CJK, most
    emoji), one for anything else. A combining mark, a joiner or a variation selector
    takes none on screen but counts one here, so that a line of :data:`TEXT_WIDTH`
    cells is never more than that many characters (a page of text always fits one
    message); :func:`cut` composes accents first, so that only rarer marks do this.

    >>> cells("Ada"), cells("博士"), cells("é"), cells("🎲")
    (3, 4, 1, 2)
    """
    return sum(_cell_count(ch) for ch in text)


def _cell_count(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _plain(text: str) -> str:
    """``text`` safe inside a code block: backticks (which would end it) made quotes,
    newlines and other control characters made spaces, accents composed (NFC); letters
    kept as they are."""
    text = unicodedata.normalize("NFC", text[:MAX_TEXT])
    return "".join("'" if ch == "`" else " " if unicodedata.category(ch) == "Cc" else ch
                   for ch in text)


def cut(text: str, width: int) -> str:
    """``text`` (made :func:`_plain`) at most ``width`` cells, cut with an ellipsis, and
    padded with spaces to exactly ``width``.

    >>> cut("Ada Lovelace", 6), cut("Bo", 4), cut("博士博士", 5), cut("e\u0301", 2)
    ('Ada L…', 'Bo  ', '博士…', 'é ')
    """
    text = _plain(text)
    if cells(text) > width:
        used, keep = 0, 0
        for ch in text:  # the longest start that leaves a cell for the ellipsis
            if used + _cell_count(ch) + 1 > width:
                break
            used += _cell_count(ch)
            keep += 1
        text = text[:keep].rstrip() + "…"
    return text + " " * (width - cells(text))


def _text_pages(blocks: Sequence[list[str]], head: int) -> list[list[list[str]]]:
    """``blocks`` of lines (a table, a player) put on pages of at most
    :data:`TEXT_LINES` lines, ``head`` of which the heading takes; a block is never
    split."""
    pages: list[list[list[str]]] = [[]]
    used = head
    for block in blocks:
        if pages[-1] and used + len(block) > TEXT_LINES:
            pages.append([])
            used = head
        pages[-1].append(block)
        used += len(block)
    return pages


def _pairing_text_block(row: TableRow) -> list[str]:
    """A table's lines: its number and label, then its players two to a line."""
    number = "  -" if row.table is None else f"{row.table:>3}"
    bye = tr("tournaments.picture.bye")
    players = [p if p is not None else bye for p in row.players]
    if len(players) < 2:
        players.append(bye)
    lines = []
    if row.label:
        lines.append(f"{number}  {cut(row.label, TEXT_WIDTH - 5)}".rstrip())
        number = "   "
    for k in range(0, len(players), 2):
        pair = [cut(p, TEXT_NAME_W) for p in players[k:k + 2]]
        lines.append(f"{number}  {' '.join(pair)}".rstrip())
        number = "   "
    return lines


def _code_block(heading: Sequence[str], body: Sequence[str]) -> str:
    return "```\n" + "\n".join([*heading, *body]) + "\n```"


def pairings_text(title: str, round_no: int, rows: Sequence[TableRow], page: int = 1) -> str:
    """Round ``round_no``'s pairings as a code block (see the module's docstring): the
    title, then a line per table (a label or a pod takes more), byes last with "-" for
    their table. ``page`` counts from 1 (:func:`pairings_pages` with ``text``).

    >>> print(pairings_text("Open", 1, [TableRow(1, ("Ada", "Bo")), TableRow(None, ("Cy",))]))
    ```
    Open
    Round 1 pairings
      #  Player           Opponent
      1  Ada              Bo
      -  Cy               bye
    ```
    """
    pods = _any_pod(rows)
    pages = _text_pages([_pairing_text_block(row) for row in rows], 4)
    _paged(page, len(pages))
    heading = [cut(title, TEXT_WIDTH).rstrip(),
               cut(tr("tournaments.picture.pairings", round=round_no)
                   + _text_page_word(page, len(pages)), TEXT_WIDTH).rstrip(),
               ("  #  " + cut(tr("tournaments.picture.players"), TEXT_WIDTH - 5)).rstrip()
               if pods else
               ("  #  " + cut(tr("tournaments.picture.player"), TEXT_NAME_W) + " "
                + cut(tr("tournaments.picture.opponent"), TEXT_WIDTH - 6 - TEXT_NAME_W)
                ).rstrip()]
    body = ([line for block in pages[page - 1] for line in block]
            or [cut(tr("tournaments.picture.no_pairings"), TEXT_WIDTH).rstrip()])
    return _code_block(heading, body)


def _text_page_word(page: int, pages: int) -> str:
    return tr("tournaments.picture.text_page", page=page, pages=pages) if pages > 1 else ""


def _right(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells and set against the right of them."""
    text = cut(text, width).rstrip()
    return " " * (width - cells(text)) + text


def standings_text_head() -> tuple[str, str]:
    """The two heading lines of :func:`standings_text`, one over each line of a player,
    in the locale spoken.

    >>> for line in standings_text_head(): print(repr(line))
    '  # Player                           Pts'
    '    W-L-D       OMW%    GW%   OGW%'
    """
    head = dict(zip(STANDING_HEADS, map(head_words, STANDING_HEADS), strict=True))
    # Every column keeps a space before it, however long its words.
    first = (f"{_right(head['#'], 3)} {cut(head['Player'], TEXT_WIDTH - 8)} "
             f"{_right(head['Pts'], 3)}")
    second = f"    {cut(head['W-L-D'], 8)} " + "".join(
        " " + _right(head[figure], 6) for figure in ("OMW%", "GW%", "OGW%"))
    return first, second


STANDINGS_TEXT_LINES = 2
"""Lines of :func:`standings_text_head`."""


def _standing_text_block(line: Standing, names: Mapping[int, str],
                         marks: Mapping[Words, str]) -> list[str]:
    """A player's two lines: rank, name (and marks) and points; then record, OMW%, GW%
    and OGW% under the heading's columns."""
    points = f"{line.points:>4}"
    suffix = marks.get(line.note, "") + (tr("tournaments.picture.dropped_suffix")
                                         if line.dropped else "")
    rank = f"{line.rank:>3}"
    room = TEXT_WIDTH - len(rank) - 1 - len(points) - 1 - len(suffix)
    name = cut(_name(names, line.entrant), room).rstrip() + suffix
    first = f"{rank} {name}{' ' * (TEXT_WIDTH - len(rank) - 1 - len(points) - cells(name))}"
    second = (f"    {line.record:<9}{percent(line.omw):>7}{percent(line.gw):>7}"
              f"{percent(line.ogw):>7}")
    return [first + points, second[:TEXT_WIDTH]]


def standings_text(title: str, standings: Sequence[Standing], names: Mapping[int, str],
                   page: int = 1) -> str:
    """``standings`` as a code block (see the module's docstring): two lines a player
    (rank, name, points; then record, OMW%, GW%, OGW% with one decimal), "(dropped)" after
    a dropped player's name, tie marks explained at the end. ``page`` counts from 1
    (:func:`standings_pages` with ``text``).

    >>> print(standings_text("Open", [Standing(1, 7, 9, 3, 0, 0, 0.5, 1.0, 0.5)], {7: "Ada"}))
    ```
    Open
    Standings
      # Player                           Pts
        W-L-D       OMW%    GW%   OGW%
      1 Ada                                9
        3-0-0       50.0  100.0   50.0
    ```
    """
    marks = note_marks(standings)
    pages = _standings_text_pages(standings, names)
    _paged(page, len(pages))
    heading = [cut(title, TEXT_WIDTH).rstrip(),
               cut(tr("tournaments.picture.standings") + _text_page_word(page, len(pages)),
                   TEXT_WIDTH).rstrip(), *standings_text_head()]
    body = ([line for block in pages[page - 1] for line in block]
            or [cut(tr("tournaments.picture.no_players"), TEXT_WIDTH).rstrip()])
    start = sum(len(p) for p in pages[: page - 1])
    shown = {line.note for line in standings[start: start + len(pages[page - 1])]}
    body += [line for note, mark in marks.items() if note in shown
             for line in _note_lines(note, mark)]
    return _code_block(heading, body)


def _note_lines(note: Words, mark: str) -> list[str]:
    """A tie note under the text standings (how a tie with the line above was broken),
    broken at spaces into lines of at most :data:`TEXT_WIDTH` cells (a word too long
    cut short).

    >>> _note_lines("drawn at random after a long and careful look at it all", "**")
    ['** Tie broken: drawn at random after a', '  long and careful look at it all']
    """
    lines: list[str] = []
    line = tr("tournaments.picture.tie_broken", mark=mark)
    for word in _plain(say(note)).split():
        if cells(line) + 1 + cells(word) <= TEXT_WIDTH:
            line += " " + word
        else:
            lines.append(line)
            line = "  " + cut(word, TEXT_WIDTH - 2).rstrip()
    return [*lines, line]


def _standings_text_pages(standings: Sequence[Standing], names: Mapping[int, str]
                          ) -> list[list[list[str]]]:
    """The pages of :func:`standings_text`: room is kept on every page for the heading
    and a line per different tie note."""
    marks = note_marks(standings)
    blocks = [_standing_text_block(line, names, marks) for line in standings]
    notes = sum(len(_note_lines(note, mark)) for note, mark in marks.items())
    return _text_pages(blocks, STANDINGS_TEXT_LINES + 2 + notes)
