"""A stored tournament as the formats read it (``rules/tournament/``): which format
plays it, its entrants and results as :class:`~rules.tournament.model.Entrant` and
:class:`~rules.tournament.model.Result`, the next round, the standings and (for
brackets) the bracket — with a top cut after Swiss played as single elimination of
the top 4 or 8, seeded 1… from the Swiss standings. Generic: nothing here names a game.

The top cut's rounds follow the Swiss rounds (a Swiss of 5 rounds and a top 8 plays
rounds 6, 7 and 8, stage ``cut``): its bracket starts in the round after the Swiss
(``first_round``) and sees only its own results and the entrants who made it. Final
standings rank the top cut's players by how far they went in it (as the bracket ranks
them), then everyone else in Swiss order; every line keeps the figures of the Swiss
rounds. Rounds are stored under the numbers the formats give them.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bot.tournaments.model import TournamentSettings
from bot.tournaments.terms import label_code
from rules.core import GameInfo
from rules.registry import get_game
from rules.tournament.model import Entrant, Result, RoundPlan, Standing, TournamentFormat
from storage.tournaments import EntrantRow, PairingPlan, PairingRow, Stage, TournamentRow

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger(__name__)

FormatBuilder = Callable[[str, TournamentSettings, GameInfo], TournamentFormat]
"""``(format name, settings, game) -> format``: :func:`build_format`, or a test's."""

_CLASSES = {
    "swiss": ("rules.tournament.swiss", "SwissFormat"),
    "round_robin": ("rules.tournament.round_robin", "RoundRobinFormat"),
    "single": ("rules.tournament.elimination", "SingleEliminationFormat"),
    "double": ("rules.tournament.elimination", "DoubleEliminationFormat"),
    "pods": ("rules.tournament.pods", "PodsFormat"),
}


POD_ROUNDS = 3
"""Rounds of pods when the organiser sets none (the spec gives no table for pods)."""


def format_class(name: str) -> type[Any]:
    """The class of a format, imported when first asked for."""
    module, cls = _CLASSES[name]
    return getattr(importlib.import_module(module), cls)


def pod_size(settings: TournamentSettings, info: GameInfo) -> int:
    """Seats per pod: the organiser's, else the game's usual table (at least 3)."""
    if settings.pod_size is not None:
        return settings.pod_size
    return min(info.max_seats, max(3, info.default_seats))


def build_format(name: str, settings: TournamentSettings, info: GameInfo) -> TournamentFormat:
    """The format that plays a tournament with these settings."""
    cls = format_class(name)
    if name == "swiss":
        return cls(rounds=settings.rounds)
    if name == "single":
        return cls(third_place=settings.third_place)
    if name == "double":
        return cls(bracket_reset=settings.bracket_reset)
    if name == "pods":
        return cls(seats=pod_size(settings, info), min_seats=info.min_seats,
                   rounds=settings.rounds or POD_ROUNDS, points=settings.pod_points)
    return cls()


def cut_format(first_round: int, settings: TournamentSettings) -> TournamentFormat:
    """The top cut's format: single elimination from ``first_round``."""
    return format_class("single")(first_round=first_round, third_place=settings.third_place)


FORFEITS = frozenset({"absence", "drop"})
"""How a pairing is decided when a seat left it: that seat loses whatever the games
played say (``Result.forfeit``)."""


def result_of(pairing: PairingRow) -> Result:
    """A decided pairing as the formats read it. A result stored before results were
    checked whole may have games at odds with its places: the places decide (they
    give the points), and its games are left out rather than the standings refused."""
    assert pairing.places is not None
    forfeit = pairing.decided_by in FORFEITS
    try:
        return Result(pairing.round, pairing.seats, pairing.places, pairing.games,
                      pairing.drawn_games, pairing.both_lose, forfeit)
    except ValueError:
        log.warning("tournament pairing %s/%s: stored games %s disagree with its places %s;"
                    " read without them", pairing.round, pairing.table, pairing.games,
                    pairing.places)
        return Result(pairing.round, pairing.seats, pairing.places,
                      both_lose=pairing.both_lose, forfeit=forfeit)


def plan_rows(plan: RoundPlan) -> tuple[PairingPlan, ...]:
    """A round's pairings as the store keeps them: tables numbered in the format's
    order, byes after every match; labels as keys and arguments (:func:`label_code`)."""
    labels = [label_code(label) for label in plan.labels]
    labels += [""] * (len(plan.pairings) - len(labels))
    ordered = sorted(zip(plan.pairings, labels, strict=True), key=lambda p: len(p[0]) == 1)
    return tuple((n, tuple(seats), label) for n, (seats, label) in enumerate(ordered, start=1))


@dataclass(frozen=True)
class NextRound:
    """The round to pair next."""

    round: int
    stage: Stage
    pairings: tuple[PairingPlan, ...]
    cut_seeds: tuple[tuple[int, int], ...] = ()


class Progress:
    """One tournament as stored, as its format sees it."""

    def __init__(self, tournament: TournamentRow, entrants: Sequence[EntrantRow],
                 pairings: Sequence[PairingRow], main: TournamentFormat) -> None:
        self.tournament = tournament
        self.settings = TournamentSettings.parse(tournament.settings)
        self.entrants = list(entrants)
        self.pairings = list(pairings)
        self.main = main

    # -- the main stage ------------------------------------------------------------
    def main_entrants(self) -> list[Entrant]:
        """Everyone, with their seeds and drops."""
        return [Entrant(e.user_id, e.seed if e.seed is not None else n, e.dropped_after)
                for n, e in enumerate(self.entrants, start=1)]

    def main_results(self) -> list[Result]:
        """The decided pairings before any top cut."""
        return [result_of(p) for p in self.pairings if p.done and p.stage == "main"]

    def main_standings(self) -> list[Standing]:
        """The standings of the main stage."""
        return self.main.standings(self.main_entrants(), self.main_results(),
                                   self.tournament.seed)

    # -- the top cut -----------------------------------------------------------------
    def cut(self, first_round: int | None = None) -> TournamentFormat:
        """The top cut's bracket (starting after the Swiss rounds)."""
        start = first_round or (self.tournament.cut_after or 0) + 1
        return cut_format(start, self.settings)

    def cut_entrants(self) -> list[Entrant]:
        """Those who made the top cut, seeded by their Swiss rank."""
        return [Entrant(e.user_id, e.cut_seed, e.dropped_after)
                for e in sorted(self.entrants, key=lambda e: e.cut_seed or 0)
                if e.cut_seed is not None]

    def cut_results(self) -> list[Result]:
        """The top cut's decided pairings."""
        return [result_of(p) for p in self.pairings if p.done and p.stage == "cut"]

    def cut_seeds(self) -> tuple[tuple[int, int], ...]:
        """Who makes the top cut: the best of the Swiss standings still playing."""
        top = [s.entrant for s in self.main_standings() if not s.dropped]
        return tuple((user, seed) for seed, user in
                     enumerate(top[:self.settings.top_cut], start=1))

    # -- what comes next -------------------------------------------------------------
    def next_round(self) -> NextRound | None:
        """The next round's pairings, or ``None`` when the tournament is over. Asked
        once every pairing of the current round has its result."""
        t = self.tournament
        if t.cut_after is None:
            plan = self.main.next_round(self.main_entrants(), self.main_results(), t.seed)
            if plan is not None:
                return NextRound(plan.round, "main", plan_rows(plan))
            if t.format != "swiss" or not self.settings.top_cut:
                return None
            seeds = self.cut_seeds()
            if len(seeds) < 2:
                return None
            entrants = [Entrant(user, seed) for user, seed in seeds]
            plan = self.cut(t.round + 1).next_round(entrants, [], t.seed)
            return None if plan is None else NextRound(plan.round, "cut", plan_rows(plan),
                                                       seeds)
        plan = self.cut().next_round(self.cut_entrants(), self.cut_results(), t.seed)
        return None if plan is None else NextRound(plan.round, "cut", plan_rows(plan))

    def standings(self) -> list[Standing]:
        """Everyone ranked, best first (the top cut's players first once it began)."""
        main = self.main_standings()
        if self.tournament.cut_after is None:
            return main
        cut = self.cut().standings(self.cut_entrants(), self.cut_results(),
                                   self.tournament.seed)
        by_id = {s.entrant: s for s in main}
        lines = [replace(by_id[s.entrant], rank=s.rank, note=s.note or by_id[s.entrant].note)
                 for s in cut if s.entrant in by_id]
        made = {s.entrant for s in cut}
        rest = [s for s in main if s.entrant not in made]
        return lines + [replace(s, rank=len(lines) + n) for n, s in enumerate(rest, start=1)]

    def bracket(self) -> Any | None:
        """The bracket as it stands, for a picture (elimination formats and a top cut
        once it began; ``None`` otherwise)."""
        if self.tournament.cut_after is not None:
            return self.cut().bracket(self.cut_entrants(), self.cut_results())  # type: ignore[attr-defined]
        if hasattr(self.main, "bracket"):
            return self.main.bracket(self.main_entrants(), self.main_results())
        return None


async def read_progress(store: Store, tournament: TournamentRow,
                        formats: FormatBuilder = build_format) -> Progress:
    """``tournament`` as stored, as its format sees it: what the tournament service
    ranks, pairs and draws from, and what every reader (the web's pages) shows."""
    info = get_game(tournament.game)
    settings = TournamentSettings.parse(tournament.settings)
    return Progress(tournament, await store.tournaments.entrants(tournament.id),
                    await store.tournaments.pairings(tournament.id),
                    formats(tournament.format, settings, info))
