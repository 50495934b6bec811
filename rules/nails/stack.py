"""The build stack: where tiles may go, what they cover, what shows.

Square tiles sit on a grid of zone cells: a tile at ``(x, y)`` covers the 2×2
cells ``(x, y)`` … ``(x+1, y+1)``. Octagonal tiles sit with their centre on a
point ``(x, y)`` with both even; their four zones are the cells above, right
of, below and left of it. Either may be turned by 90° steps: turning a tile a
quarter clockwise moves the zone shown at the top-left (or top) to the next
place clockwise.

>>> from rules.nails.tiles import parse_deck
>>> deck = parse_deck("figs", "square", "2 R:again H H _\\n3 R:again H:search _ G")
>>> stack = BuildStack("square")
>>> stack.place(deck.tile(3), Placement(3, 0, 0, 0), first=True)
[]
>>> stack.check(deck.tile(2), Placement(2, -1, 1, 0)) is not None   # FIG. 5
True
>>> stack.check(deck.tile(2), Placement(2, 0, 0, 0)) is None        # nail on a hammer
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rules.cells import cell_name, parse_cell
from rules.core import Decision
from rules.errors import MalformedChoice, shown
from rules.nails.tiles import Shape, Tile, Zone
from rules.nails.words import a_kind
from rules.phrases import Phrase

Cell = tuple[int, int]
ROTATIONS = (0, 90, 180, 270)
OFFSETS: dict[str, tuple[Cell, Cell, Cell, Cell]] = {
    "square": ((0, 0), (1, 0), (1, 1), (0, 1)),     # top-left, top-right, bottom-right, b.-left
    "octagon": ((0, -1), (1, 0), (0, 1), (-1, 0)),  # top, right, bottom, left of the centre
}
PLACING = ("place", "cover")
"""The kinds of decision whose options are placements."""
PLACE_SEP = "@"
ACCEPTS = {"blank": ("nail", "blank"), "nail": ("hammer", "blank"), "hammer": ("blank",)}
"""What may be laid on each kind of zone."""


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """Where a tile goes: its anchor cell (top-left cell, or the octagon's centre)
    and its turn in degrees clockwise."""

    tile: int
    x: int
    y: int
    rotation: int = 0

    @property
    def notation(self) -> str:
        """``17@C4`` or ``17@C4/90``.

        >>> Placement(17, 2, 3, 90).notation
        '17@C4/90'
        """
        turn = f"/{self.rotation}" if self.rotation else ""
        return f"{self.tile}{PLACE_SEP}{cell_name(self.x, self.y)}{turn}"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Read ``17@C4/90`` (also ``17 C4 90``, any case).

        >>> Placement.parse("17 c4 270")
        Placement(tile=17, x=2, y=3, rotation=270)
        >>> Placement.parse("²@C4")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rules.errors.MalformedChoice: nails.error.not_placement(text="'²@C4'")
        """
        words = text.replace("@", " ").replace("/", " ").split()
        if len(words) not in (2, 3) or not _number(words[0], 4):
            raise MalformedChoice(Phrase("nails.error.not_placement", text=shown(text)))
        rotation = int(words[2]) if len(words) == 3 and _number(words[2], 3) else 0
        if len(words) == 3 and (not _number(words[2], 3) or rotation not in ROTATIONS):
            raise MalformedChoice(Phrase("nails.error.turn", turn=shown(words[2])))
        x, y = parse_cell(words[1])
        return cls(int(words[0]), x, y, rotation)


def placement_notation(tile: int, cell: str, rotation: int = 0) -> str:
    """A placement from its parts as typed (``/nails place``), in notation;
    :class:`MalformedChoice` names a bad cell or turn.

    >>> placement_notation(17, " c4 ", 90)
    '17@C4/90'
    """
    if rotation not in ROTATIONS:
        raise MalformedChoice(Phrase("nails.error.turn", turn=shown(rotation)))
    x, y = parse_cell(cell)
    return Placement(tile, x, y, rotation).notation


def _number(word: str, digits: int) -> bool:
    """Whether ``word`` is a whole number of at most ``digits`` ASCII digits."""
    return word.isascii() and word.isdigit() and len(word) <= digits


def placement_group(decision: Decision, option: str) -> str | None:
    """The tile of a placement option, so that menus can ask for the tile first
    (the rules' :attr:`~rules.core.GameInfo.option_group`).

    >>> placement_group(Decision(0, "place", "", ("17@C4",)), "17@C4")
    '17'
    >>> placement_group(Decision(0, "place", "", ("cannot",)), "cannot") is None
    True
    """
    if decision.kind in PLACING and PLACE_SEP in option:
        return option.split(PLACE_SEP, 1)[0]
    return None


@dataclass(frozen=True, slots=True)
class Covered:
    """One zone a placement covers: the cell, the tile and zone underneath, and
    the zone laid on it."""

    cell: Cell
    under_tile: int
    under: Zone
    over: Zone


def _fits(allowed: tuple[tuple[str, ...] | None, ...], kinds: tuple[str, ...]) -> bool:
    """Whether zones of ``kinds`` may lie on showing zones accepting ``allowed``
    (asked only when :data:`_FITTING` does not know yet)."""
    return all(a is None or k in a for a, k in zip(allowed, kinds, strict=True))


Turns = tuple[tuple[int, str], ...]
"""Turns of a tile that fit a spot, each with its notation suffix ("", "/90" …)."""
_FITTING: dict[tuple[tuple[str, ...] | None, ...], dict[str, Turns]] = {}
"""For each pattern of accepted kinds, the fitting turns of each tile pattern met so
far: a few hundred patterns in all, shared by every spot and stack."""


def _turns(allowed: tuple[tuple[str, ...] | None, ...], kinds: str) -> Turns:
    """The turns of a tile whose zones are ``kinds`` (unturned, in offset order,
    as :attr:`Tile.kinds` writes them) that fit showing zones accepting ``allowed``."""
    kinds = kinds.split()
    return tuple((rotation, f"/{rotation}" if rotation else "") for rotation in ROTATIONS
                 if _fits(allowed, tuple(kinds[(i - rotation // 90) % 4] for i in range(4))))


@dataclass(slots=True)
class Spot:
    """An anchor where tiles may go, with the showing zones a tile would cover there
    (``None`` over empty table) and the kinds each of those accepts. Never changed
    once made (not frozen only because a frozen one costs twice as much to make,
    and a move makes about nine)."""

    anchor: Cell
    unders: tuple[Zone | None, ...]
    allowed: tuple[tuple[str, ...] | None, ...]
    name: str = field(default="", compare=False)
    """The anchor's cell name, as placements write it."""
    fitting: dict[str, Turns] = field(default_factory=dict, compare=False, repr=False)

    def turns(self, kinds: str) -> Turns:
        """The turns of a tile with zones of ``kinds`` that fit here."""
        turns = self.fitting.get(kinds)
        if turns is None:
            turns = self.fitting[kinds] = _turns(self.allowed, kinds)
        return turns


def _anchor(spot: Spot) -> Cell:
    return spot.anchor


@dataclass(slots=True)
class Layer:
    """A tile on the stack."""

    tile: Tile
    placement: Placement
    cells: tuple[Cell, ...]


class BuildStack:
    """The tiles laid so far, bottom first."""

    def __init__(self, shape: Shape) -> None:
        self.shape: Shape = shape
        self.layers: list[Layer] = []
        self.cells: dict[Cell, tuple[tuple[int, Zone], ...]] = {}
        """Each cell's zones, bottom first, with the tile each belongs to. Tuples,
        replaced when a cell changes, so a copy of the stack copies one dict."""
        self.centres: dict[Cell, Tile] = {}
        self._spots: dict[Cell, Spot] | None = None
        """The frontier by anchor, kept up to date as tiles come and go (``None``
        until first asked for). Never changed in place: copies share it."""
        self._frontier: list[Spot] | None = None
        self._showing: dict[str, int] | None = None
        self._tops: tuple[int, ...] | None = None

    def copy(self) -> BuildStack:
        """An independent copy."""
        new = BuildStack(self.shape)
        new.layers = list(self.layers)
        new.cells = dict(self.cells)
        new.centres = dict(self.centres)
        new._spots = self._spots
        new._frontier = self._frontier
        new._showing = self._showing
        new._tops = self._tops
        return new

    # -- reading ------------------------------------------------------------------
    def zones_of(self, tile: Tile, placement: Placement) -> list[tuple[Cell, Zone]]:
        """The cells a tile would occupy, each with the zone it would show there."""
        turn = placement.rotation // 90
        x, y = placement.x, placement.y
        return [((x + dx, y + dy), tile.zones[(i - turn) % 4])
                for i, (dx, dy) in enumerate(OFFSETS[self.shape])]

    def visible(self, cell: Cell) -> tuple[int, Zone] | None:
        """The top-most zone of a cell and its tile, or ``None`` over empty table."""
        zones = self.cells.get(cell)
        return zones[-1] if zones else None

    def visible_zones(self) -> dict[Cell, tuple[int, Zone]]:
        """Every cell's top-most zone."""
        return {cell: zones[-1] for cell, zones in self.cells.items() if zones}

    def top_tiles(self) -> list[int]:
        """Tiles with nothing above them, in the order they were laid."""
        if self._tops is None:
            self._tops = tuple(
                layer.tile.number for layer in self.layers
                if all(self.cells[cell][-1][0] == layer.tile.number for cell in layer.cells))
        return list(self._tops)

    def layer(self, number: int) -> Layer:
        """The stack's layer holding tile ``number``."""
        for layer in self.layers:
            if layer.tile.number == number:
                return layer
        raise KeyError(number)

    @property
    def tiles(self) -> list[int]:
        """Tile numbers on the stack, bottom first."""
        return [layer.tile.number for layer in self.layers]

    # -- the placement rules ------------------------------------------------------
    def check(self, tile: Tile, placement: Placement) -> list[Covered] | None:
        """What a placement would cover, or ``None`` if it is illegal."""
        if placement.rotation not in ROTATIONS:
            return None
        if self.shape == "octagon" and (placement.x % 2 or placement.y % 2
                                        or (placement.x, placement.y) in self.centres):
            return None
        covered: list[Covered] = []
        under_tiles: set[int] = set()
        for cell, zone in self.zones_of(tile, placement):
            zones = self.cells.get(cell)
            if not zones:
                continue
            under_tile, under = zones[-1]
            if (under.null or under_tile in under_tiles
                    or zone.kind not in ACCEPTS[under.kind]):
                return None
            under_tiles.add(under_tile)
            covered.append(Covered(cell, under_tile, under, zone))
        return covered or None

    def refusal(self, tile: Tile, placement: Placement, nail_word: str = "nail",
                hammer_word: str = "hammer") -> Phrase | None:
        """Why :meth:`check` refuses a placement, in words naming the zone at fault
        (the first, in the order :meth:`check` looks), or ``None`` if it is legal.
        ``nail_word`` and ``hammer_word`` are the deck's words for them.

        >>> from rules.nails.tiles import parse_deck
        >>> deck = parse_deck("d", "square", "1 R _ _ _\\n2 H _ _ G\\n3 _ _ H:null _")
        >>> stack = BuildStack("square")
        >>> for n, x in ((2, 0), (3, 2)):
        ...     _ = stack.place(deck.tile(n), Placement(n, x, 0), first=True)
        >>> why = stack.refusal(deck.tile(1), Placement(1, -1, -1, 180))
        >>> why.key, dict(why.args)["over"].key, dict(why.args)["at"]
        ('nails.error.lays_on', 'nails.kind_a.nail', Phrase(nails.at(cell='A1', tile=2)))
        >>> [stack.refusal(deck.tile(1), Placement(1, x, y)).key  # type: ignore[union-attr]
        ...  for x, y in ((3, 1), (1, 0), (9, 9))]
        ['nails.error.null', 'nails.error.two_zones', 'nails.error.covers_nothing']
        """
        words = {"nail": nail_word, "hammer": hammer_word, "blank": "blank"}
        where = Phrase("nails.where", tile=tile.number,
                       cell=placement.notation.split(PLACE_SEP, 1)[1])
        if placement.rotation not in ROTATIONS:
            return Phrase("nails.error.turn", turn=placement.rotation)
        anchor = (placement.x, placement.y)
        if self.shape == "octagon" and (placement.x % 2 or placement.y % 2):
            return Phrase("nails.error.octagon_anchor", where=where, cell=cell_name(*anchor))
        if self.shape == "octagon" and anchor in self.centres:
            return Phrase("nails.error.on_centre", where=where,
                          tile=self.centres[anchor].number)
        seen: dict[int, Cell] = {}
        for cell, zone in self.zones_of(tile, placement):
            zones = self.cells.get(cell)
            if not zones:
                continue
            under_tile, under = zones[-1]
            at = Phrase("nails.at", cell=cell_name(*cell), tile=under_tile)
            if under.null:
                return Phrase("nails.error.null", where=where, at=at)
            if under_tile in seen:
                return Phrase("nails.error.two_zones", where=where, tile=under_tile,
                              first=cell_name(*seen[under_tile]), second=cell_name(*cell))
            seen[under_tile] = cell
            if zone.kind not in ACCEPTS[under.kind]:
                allowed = [a_kind(words[kind]) for kind in ACCEPTS[under.kind]]
                takes = (allowed[0] if len(allowed) == 1 else
                         Phrase("nails.either", first=allowed[0], second=allowed[1]))
                return Phrase("nails.error.lays_on", where=where, over=a_kind(words[zone.kind]),
                              under=a_kind(words[under.kind]), at=at, takes=takes)
        if not seen:
            return Phrase("nails.error.covers_nothing", where=where)
        return None

    def frontier(self) -> list[Spot]:
        """Every anchor where some tile could go, in anchor order: a tile there
        covers at least one showing zone, no two on one tile, and no Ø zone.

        Which zones a tile covers there does not depend on the tile or its turn,
        so only the kinds are checked per tile. The spots are worked out once,
        then only those around a tile laid or taken off are worked out again.
        """
        if self._frontier is None:
            if self._spots is None:
                self._spots = self._all_spots()
            self._frontier = sorted(self._spots.values(), key=_anchor)
        return self._frontier

    def forget(self) -> None:
        """Drop what is remembered of the stack (frontier, counts, top tiles), so it
        is worked out from scratch when next asked (benchmarks, and tests of the
        upkeep)."""
        self._spots = None
        self._frontier = self._showing = self._tops = None

    def _all_spots(self) -> dict[Cell, Spot]:
        return self._spots_at({(cx - dx, cy - dy) for cx, cy in self.cells
                               for dx, dy in OFFSETS[self.shape]})

    def _spots_at(self, anchors: Iterable[Cell]) -> dict[Cell, Spot]:
        spots: dict[Cell, Spot] = {}
        for x, y in anchors:
            spot = self._spot(x, y)
            if spot is not None:
                spots[(x, y)] = spot
        return spots

    def _spot(self, x: int, y: int) -> Spot | None:
        if self.shape == "octagon" and (x % 2 or y % 2 or (x, y) in self.centres):
            return None
        unders: list[Zone | None] = []
        tiles: set[int] = set()
        for dx, dy in OFFSETS[self.shape]:
            zones = self.cells.get((x + dx, y + dy))
            if not zones:
                unders.append(None)
                continue
            tile, zone = zones[-1]
            if zone.null or tile in tiles:
                return None
            tiles.add(tile)
            unders.append(zone)
        if not tiles:
            return None
        allowed = tuple(None if u is None else ACCEPTS[u.kind] for u in unders)
        fitting = _FITTING.get(allowed)
        if fitting is None:
            fitting = _FITTING[allowed] = {}
        return Spot((x, y), tuple(unders), allowed, cell_name(x, y), fitting)

    def _changed(self, cells: Iterable[Cell]) -> None:
        """Bring the frontier up to date after ``cells`` changed their showing zone."""
        self._frontier = None
        if self._spots is None:
            return
        anchors = {(cx - dx, cy - dy) for cx, cy in cells for dx, dy in OFFSETS[self.shape]}
        spots = {anchor: spot for anchor, spot in self._spots.items() if anchor not in anchors}
        spots.update(self._spots_at(anchors))
        self._spots = spots

    def placements(self, tile: Tile) -> Iterator[Placement]:
        """Every legal placement of ``tile``, in a stable order."""
        kinds = tile.kinds
        for spot in self.frontier():
            x, y = spot.anchor
            for rotation, _ in spot.turns(kinds):
                yield Placement(tile.number, x, y, rotation)

    def notations(self, tile: Tile) -> list[str]:
        """The notation of every legal placement of ``tile``, in the order of
        :meth:`placements` (the decision's options, without making placements)."""
        prefix = f"{tile.number}@"
        kinds = tile.kinds
        found: list[str] = []
        for spot in self.frontier():
            # The lookup inlined: this loop runs for every tile of every hand to move.
            turns = spot.fitting.get(kinds)
            if turns is None:
                turns = spot.turns(kinds)
            for _, suffix in turns:
                found.append(prefix + spot.name + suffix)
        return found

    def can_place(self, tile: Tile) -> bool:
        """Whether ``tile`` has a legal placement."""
        kinds = tile.kinds
        return any(spot.turns(kinds) for spot in self.frontier())

    def covers_colour(self, placement: Placement, colour: str) -> bool:
        """Whether a (legal) placement covers a showing nail of ``colour``."""
        zones = (self.cells.get((placement.x + dx, placement.y + dy))
                 for dx, dy in OFFSETS[self.shape])
        return any(z and z[-1][1].kind == "nail" and z[-1][1].colour == colour for z in zones)

    # -- changing -----------------------------------------------------------------
    def place(self, tile: Tile, placement: Placement, *, first: bool = False) -> list[Covered]:
        """Lay a tile; returns what it covered. ``first`` lays the starting tile."""
        covered = [] if first else self.check(tile, placement)
        if covered is None:
            raise ValueError(f"illegal placement {placement.notation}")
        cells = []
        under: set[int] = set()
        showing = self._showing if self._showing is None else dict(self._showing)
        for cell, zone in self.zones_of(tile, placement):
            zones = self.cells.get(cell, ())
            if zones:
                under.add(zones[-1][0])
                if showing is not None and zones[-1][1].kind == "nail":
                    showing[zones[-1][1].colour] -= 1  # type: ignore[index]
            if showing is not None and zone.kind == "nail" and zone.colour is not None:
                showing[zone.colour] = showing.get(zone.colour, 0) + 1
            self.cells[cell] = (*zones, (tile.number, zone))
            cells.append(cell)
        if self.shape == "octagon":
            self.centres[(placement.x, placement.y)] = tile
        self.layers.append(Layer(tile, placement, tuple(cells)))
        # What the stack remembers, brought up to date (never changed in place:
        # copies share it): a covered tile is no longer on top, the new one is.
        self._showing = showing
        if self._tops is not None:
            self._tops = (*(n for n in self._tops if n not in under), tile.number)
        self._changed(cells)
        return covered

    def remove(self, number: int) -> Tile:
        """Take a top tile off the stack."""
        layer = self.layer(number)
        if number not in self.top_tiles():
            raise ValueError(f"tile {number} is not on top")
        for cell in layer.cells:
            below = self.cells[cell][:-1]
            if below:
                self.cells[cell] = below
            else:
                del self.cells[cell]
        if self.shape == "octagon":
            del self.centres[(layer.placement.x, layer.placement.y)]
        self.layers.remove(layer)
        self._showing = self._tops = None  # worked out afresh when next asked (rare)
        self._changed(layer.cells)
        return layer.tile

    # -- scoring ------------------------------------------------------------------
    def visible_nails(self, colour: str) -> int:
        """Nails of ``colour`` showing."""
        if self._showing is None:
            showing: dict[str, int] = {}
            for zones in self.cells.values():
                zone = zones[-1][1]
                if zone.kind == "nail" and zone.colour is not None:
                    showing[zone.colour] = showing.get(zone.colour, 0) + 1
            self._showing = showing
        return self._showing.get(colour, 0)

    def cow_bonus(self, colour: str) -> int:
        """For octagons: +1 for each showing ship of ``colour`` next to a cow centre."""
        if self.shape != "octagon":
            return 0
        bonus = 0
        for (cx, cy), zones in self.cells.items():
            zone = zones[-1][1] if zones else None
            if zone is None or zone.kind != "nail" or zone.colour != colour:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                centre = self.centres.get((cx + dx, cy + dy))
                if centre is not None and centre.centre == "cow":
                    bonus += 1
        return bonus

    def bounds(self) -> tuple[int, int, int, int]:
        """``(x_min, y_min, x_max, y_max)`` over occupied cells and centres."""
        cells = list(self.cells) + list(self.centres)
        if not cells:
            return (0, 0, 0, 0)
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        return min(xs), min(ys), max(xs), max(ys)
