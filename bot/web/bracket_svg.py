"""Where an elimination bracket's boxes and lines go on the tournament page
(:class:`Drawing`), for ``templates/tournament_bracket.html`` to draw as SVG.

It reads the format's own bracket (:class:`rules.tournament.elimination.Bracket`) rather
than the Discord picture's (:mod:`bot.pictures.tournament`), and lays it out afresh: the
picture must fit a chat message, so it leaves out the first rounds of a big bracket and
the match for third place; a page scrolls, so here every match is drawn, the joining
lines follow each match's ``winner_to`` (not arithmetic on places), and the grand
final's reset and the match for third place have boxes of their own.

Layout: one section after another, top to bottom (single elimination's bracket, or the
winners' then the losers' bracket), each a column per round, left to right. A first
column's matches are :data:`PITCH` apart; a later match sits midway between the
matches of its own section that feed it (in a losers' bracket that is one match where
players drop in from the winners' side). The grand final (and its reset) stand right
of both brackets, midway between their finals; the champion's box right of the last
final. The match for third place sits under the final, in the final's column.

Only numbers and keys leave this module; every word is the template's. Names are
clipped to :data:`NAME_CELLS` cells (a CJK letter or an emoji counts two) for the box;
the whole name stays in the slot's ``<title>``. The template escapes both.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from bot.pictures.tournament import cells
from rules.phrases import Phrase, Words
from rules.tournament import elimination

BOX_W = 184
SLOT_H = 22
BOX_H = 2 * SLOT_H
GAP_X = 28
"""Between columns: where the joining lines bend."""
GAP_Y = 10
PITCH = BOX_H + GAP_Y
HEAD_H = 22
"""A column's name above its first box."""
SECTION_GAP = 26
PAD = 8
NAME_CELLS = 20
"""Cells of a name shown in a box (the box holds about 20 at the page's font size)."""
SEED_W = 26
SCORE_W = 18

NoteKey = Literal["", "bye", "drawn", "both_lose", "walkover"]


@dataclass(frozen=True)
class SlotDrawing:
    """One side of a match box: who (``name`` clipped, ``full`` whole), their seed and
    games won where known, and whether they won or lost it."""

    y: float
    name: str | None
    full: str | None
    seed: int | None
    score: int | None
    bye: bool
    won: bool
    lost: bool


@dataclass(frozen=True)
class BoxDrawing:
    """One match: its box's top left corner and its two slots."""

    id: str
    section: elimination.Section
    x: float
    y: float
    slots: tuple[SlotDrawing, SlotDrawing]
    status: elimination.Status
    note: NoteKey
    round: int | None


@dataclass(frozen=True)
class ColumnHead:
    """A column's name, as numbers the template turns into words: its section, its
    column (from 1), how many columns the section has and how many matches this one."""

    x: float
    y: float
    section: elimination.Section
    column: int
    columns: int
    matches: int


@dataclass(frozen=True)
class Drawing:
    """A whole bracket to draw: its size, boxes, lines (SVG path data), column and
    section names, and the champion's box."""

    kind: Literal["single", "double"]
    width: float
    height: float
    boxes: tuple[BoxDrawing, ...]
    links: tuple[tuple[str, bool], ...]
    """``(path data, the winner has taken it)`` for each line joining two matches."""
    heads: tuple[ColumnHead, ...]
    sections: tuple[tuple[elimination.Section, float], ...]
    """Each section's title position (its top)."""
    champion_x: float
    champion_y: float
    champion: str | None
    champion_full: str | None
    entrants: int

    @property
    def box_w(self) -> int:
        """A match box's width."""
        return BOX_W

    @property
    def box_h(self) -> int:
        """A match box's height."""
        return BOX_H

    @property
    def slot_h(self) -> int:
        """A slot's height (half a box)."""
        return SLOT_H

    @property
    def seed_w(self) -> int:
        """The seed's room at a slot's left."""
        return SEED_W

    @property
    def score_w(self) -> int:
        """The games' room at a slot's right."""
        return SCORE_W


def clipped(name: str, most: int = NAME_CELLS) -> str:
    """``name`` cut to ``most`` monospace cells, an ellipsis marking the cut.

    >>> clipped("Ada"), clipped("abcdefghij", 6), clipped("界界界界", 5)
    ('Ada', 'abcde…', '界界…')
    """
    if cells(name) <= most:
        return name
    kept, used = [], 0
    for ch in name:
        width = cells(ch)
        if used + width > most - 1:
            break
        kept.append(ch)
        used += width
    return "".join(kept) + "…"


def _note(note: Words) -> NoteKey:
    """The kind of a match's note (the format's words, with entrant ids in a
    walkover's: the page says it in its own words)."""
    key = note.key if isinstance(note, Phrase) else ""
    return {"tournaments.note.walkover": "walkover", "tournaments.note.bye": "bye",
            "tournaments.note.both_lose": "both_lose",
            "tournaments.note.drawn_higher_seed": "drawn"}.get(key, "")  # type: ignore[return-value]


def _columns(matches: list[elimination.BracketMatch]) -> dict[int, list[elimination.BracketMatch]]:
    found: dict[int, list[elimination.BracketMatch]] = defaultdict(list)
    for match in matches:
        found[match.column].append(match)
    for column in found.values():
        column.sort(key=lambda m: m.index)
    return dict(sorted(found.items()))


def layout(bracket: elimination.Bracket, names: Mapping[int, str],
           seeds: Mapping[int, int | None]) -> Drawing | None:
    """Where everything of ``bracket`` goes, with each entrant's name and seed;
    ``None`` for a bracket without matches."""
    if not bracket.matches:
        return None
    by_section: dict[str, list[elimination.BracketMatch]] = defaultdict(list)
    for match in bracket.matches:
        by_section[match.section].append(match)
    centre: dict[str, float] = {}
    x_of: dict[str, float] = {}
    heads: list[ColumnHead] = []
    sections: list[tuple[elimination.Section, float]] = []
    step = BOX_W + GAP_X
    top = float(PAD)
    widest = 0
    for section in ("main", "winners", "losers"):
        matches = by_section.get(section)
        if not matches:
            continue
        columns = _columns(matches)
        if bracket.kind == "double":
            sections.append((section, top))  # type: ignore[arg-type]
            top += HEAD_H
        feeders: dict[str, list[str]] = defaultdict(list)
        for match in matches:
            if match.winner_to is not None:
                feeders[match.winner_to[0]].append(match.id)
        first = min(columns)
        height = len(columns[first]) * PITCH
        for k, (column, column_matches) in enumerate(columns.items()):
            x = PAD + k * step
            heads.append(ColumnHead(x + BOX_W / 2, top, section,  # type: ignore[arg-type]
                                    column, len(columns), len(column_matches)))
            spread = height / len(column_matches)
            for n, match in enumerate(column_matches):
                fed = [centre[m] for m in feeders.get(match.id, []) if m in centre]
                centre[match.id] = (sum(fed) / len(fed) if fed
                                    else top + HEAD_H + (n + 0.5) * spread)
                x_of[match.id] = x
        widest = max(widest, len(columns))
        top += HEAD_H + height + SECTION_GAP

    # A reset found not needed (the unbeaten player won the grand final) is left out.
    finals = sorted((m for m in by_section.get("grand_final", [])
                     if m.column == 1 or m.status != "void"), key=lambda m: m.column)
    last = [m.id for m in bracket.matches if m.winner_to == ("GF", 0)
            or m.winner_to == ("GF", 1)]
    if finals:
        ends = [centre[m] for m in last if m in centre] or [PAD + HEAD_H + BOX_H / 2]
        y_final = sum(ends) / len(ends)
        for k, match in enumerate(finals):
            x = PAD + (widest + k) * step
            centre[match.id], x_of[match.id] = y_final, x
            heads.append(ColumnHead(x + BOX_W / 2, y_final - BOX_H / 2 - HEAD_H,
                                    "grand_final", match.column, len(finals), 1))
        champion_from = finals[-1].id
        champion_column = widest + len(finals)
    else:
        final = next(m for m in reversed(bracket.matches) if m.section == "main")
        champion_from = final.id
        champion_column = widest
    third = by_section.get("third_place", [])
    for match in third:
        x = x_of[champion_from] if not finals else PAD + (widest - 1) * step
        y = centre[champion_from] + BOX_H + HEAD_H + GAP_Y
        centre[match.id], x_of[match.id] = y + BOX_H / 2, x
        heads.append(ColumnHead(x + BOX_W / 2, y - HEAD_H + 2, "third_place", 1, 1, 1))

    boxes = tuple(_box(m, x_of[m.id], centre[m.id] - BOX_H / 2, names, seeds)
                  for m in bracket.matches if m.id in centre and m.id in x_of)
    links = []
    section_of = {m.id: m.section for m in bracket.matches}
    for match in bracket.matches:
        if match.winner_to is None or match.winner_to[0] not in centre:
            continue
        target = match.winner_to[0]
        if section_of[target] not in (match.section, "grand_final"):
            continue  # never so: a winner stays in their bracket or goes to the final
        links.append((_path(x_of[match.id] + BOX_W, centre[match.id], x_of[target],
                            centre[target]), match.winner is not None))
    if finals and len(finals) > 1:
        links.append((_path(x_of[finals[0].id] + BOX_W, centre[finals[0].id],
                            x_of[finals[1].id], centre[finals[1].id]),
                      finals[1].status == "done"))
    champion_x = PAD + champion_column * step
    champion_y = centre[champion_from] - BOX_H / 2
    if bracket.champion is not None:
        links.append((_path(x_of[champion_from] + BOX_W, centre[champion_from], champion_x,
                            centre[champion_from]), True))
    bottom = max([top - SECTION_GAP] + [b.y + BOX_H for b in boxes]) + PAD
    champion_name = None if bracket.champion is None else names.get(bracket.champion, "?")
    return Drawing(
        kind=bracket.kind, width=champion_x + BOX_W + PAD, height=bottom,
        boxes=boxes, links=tuple(links), heads=tuple(heads), sections=tuple(sections),
        champion_x=champion_x, champion_y=champion_y,
        champion=None if champion_name is None else clipped(champion_name),
        champion_full=champion_name,
        entrants=sum(1 for m in bracket.matches if m.section in ("main", "winners")
                     and m.column == 1 for who in m.slots if isinstance(who, int)))


def _path(x0: float, y0: float, x1: float, y1: float) -> str:
    """Across from one box's right edge, down (or up) in the gap, across to the next."""
    xm = x1 - GAP_X / 2
    return f"M{x0:g} {y0:g}H{xm:g}V{y1:g}H{x1:g}"


def _box(match: elimination.BracketMatch, x: float, y: float, names: Mapping[int, str],
         seeds: Mapping[int, int | None]) -> BoxDrawing:
    result = match.result
    slots = []
    for k, who in enumerate(match.slots):
        entrant = who if isinstance(who, int) else None
        score = None
        if (entrant is not None and result is not None and result.games
                and entrant in result.seats and len(result.seats) == 2):
            score = result.games[result.seats.index(entrant)]
        name = None if entrant is None else names.get(entrant, "?")
        won = entrant is not None and match.winner == entrant
        slots.append(SlotDrawing(
            y=y + k * SLOT_H, name=None if name is None else clipped(name), full=name,
            seed=None if entrant is None else seeds.get(entrant), score=score,
            bye=who == elimination.BYE, won=won,
            lost=entrant is not None and match.status == "done" and not won))
    return BoxDrawing(match.id, match.section, x, y, (slots[0], slots[1]), match.status,
                      _note(match.note), match.round)
