"""Fair seats: every two-seat game's first mover, at its default options, in
computer self-play.

The issue asks that ``make bench`` report every two-seat game's first-mover
score (a win 1, a draw ½) with its 95 % interval, and that it lie within
45–55 % for every game whose default table has two seats (Eclipse's has three:
its figure at two seats is reported, not gating). Each game is played
:data:`GAMES_EACH` times, the computer of :data:`LEVELS` in both seats, with the
game's default options, seeded from :data:`SEED` (:func:`rules.arena.play`, on
every core by :func:`bench.ladder.spread`). The figure is the first mover's
share (:func:`rules.arena.first_mover_score`); it gates, between :data:`LOW` and
:data:`HIGH`, and its note gives the Wilson interval.

* **The first mover** is the seat that decides first in a new game
  (:func:`rules.arena.first_mover`). Eclipse opens with a secret choice of both
  seats at once, so nobody decides first there: its first mover is the *first
  attacker* (drawn at random; attacker and defender then swap every hand), whose
  side of each hand the rules favour (tops that differ go to the attacker).
* **Arcane Duel** is played with its shipped decks, seats swapped: game ``2k``
  and ``2k + 1`` share a seed (so the same seat starts) with the decks of one of
  the 20 ordered pairs of different decks in one seat order, then the other, so
  each deck moves first as often as second and the decks' strengths cancel.

Run it alone with ``python -m bench seats``.
"""

from __future__ import annotations

import dataclasses
import time

from bench.figures import Figure, run_alone
from bench.ladder import spread, workers
from rules.arena import Played, first_mover_score, play
from rules.registry import get_game
from rules.thinking import use_clock

GROUP = "seats"
SEED = 20_261_127
GAMES_EACH = 400
"""Games per game: the issue's "at least 400 self-play games"."""
LOW, HIGH = 0.45, 0.55
"""The first mover's score must lie within these (both included)."""
LEVELS: dict[str, str] = {
    "flank": "hard",
    "duel": "normal",
    "nails": "normal",
    "eclipse": "hard",
}
"""The computer that plays both seats of each game. Flank's is its strongest,
``hard``: its stoppers are worth more in strong hands, so its remedy is set by
``hard`` (``normal`` scores the first mover 30 % under it, see
docs/rules/flank.md), and its 400 games take some 35 min on two cores.
Eclipse's ``hard`` is quick (under 0.1 s a game). The duel's and Nails' ``hard``
think by the clock, 5–7 s a game; their first movers under ``hard`` are measured
in docs/rules/duel.md and docs/rules/nails.md and differ from ``normal``'s by
less than the interval, so ``normal`` reports them here."""
DUEL_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for a in get_game("duel").decks for b in get_game("duel").decks if a != b)
"""The 20 ordered pairs of different shipped decks."""


def setup_of(game: str, n: int) -> list[dict[str, str]] | None:
    """The seats' setup in game ``n`` of ``game``: for the duel, the decks of pair
    ``n // 2``, in its order for even ``n`` and swapped for odd ``n``.

    >>> setup_of("duel", 0) == setup_of("duel", 1)[::-1]
    True
    >>> len({tuple(d["deck"] for d in setup_of("duel", n)) for n in range(40)})
    20
    >>> setup_of("flank", 3) is None
    True
    """
    if game != "duel":
        return None
    a, b = DUEL_PAIRS[(n // 2) % len(DUEL_PAIRS)]
    return [{"deck": a}, {"deck": b}] if n % 2 == 0 else [{"deck": b}, {"deck": a}]


def seed_of(game: str, n: int) -> int:
    """Game ``n``'s seed: the duel's swapped pairs share one.

    >>> seed_of("duel", 4) == seed_of("duel", 5) != seed_of("flank", 5)
    True
    """
    return SEED + (n // 2 if game == "duel" else n)


def play_one(n: int, game: str, level: str) -> Played:
    """Game ``n`` of ``game``, the ``level`` computer in both seats, at the
    default options; ``first`` is its first mover (Eclipse's first attacker)."""
    info = get_game(game)
    player = info.computer(level)
    seed = seed_of(game, n)
    setup = setup_of(game, n)
    with use_clock(time.process_time):  # a busy machine must not weaken a search
        played = play(info, {}, seed, [player, player], setup)
    if played.first is None:
        opening = info.new({}, 2, seed, setup)
        played = dataclasses.replace(played, first=getattr(opening, "attacker", None))
    return played


def measure(game: str, games: int = GAMES_EACH, level: str | None = None) -> Figure:
    """The first-mover figure of ``game`` over ``games`` self-play games."""
    level = level or LEVELS[game]
    started = time.perf_counter()
    played = spread(play_one, range(games), game, level)
    seconds = time.perf_counter() - started
    score = first_mover_score(played)
    if score.games < games:
        raise RuntimeError(f"{game}: {games - score.games} games without a first mover")
    drawn = sum(1 for p in played if p.outcome.is_draw)
    two_seats = get_game(game).default_seats == 2
    return Figure(
        GROUP, f"{game}: first mover's score ({level} self-play, default options)",
        score.share, "share", "between", LOW,
        f"{score.shown}; {drawn} drawn; {seconds:.0f} s on {workers()} cores"
        + ("" if two_seats else "; reported, not gating: its default table has "
           f"{get_game(game).default_seats} seats"),
        high=HIGH, gates=two_seats)


def run() -> list[Figure]:
    """Every two-seat game's first-mover figure."""
    return [measure(game) for game in LEVELS]


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
