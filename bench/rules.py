"""The rules core's speed: whole games, Flank perft, Hammer & Nails placements.

Three measurements, each the median of :data:`RUNS` runs or more:

* **Whole games** of every game in :func:`rules.core.games` at its default seat
  count (Flank 2, Eclipse 3, Hammer & Nails 2) and default options, seeded so each
  run plays the very same games. *Computer* games play every seat as the service
  does (``bot/matches/service.py``): a pending decision with one option that may be made
  at once is made at once, any other is ``info.bot(state.copy(), seat,
  thinking_rng(seed, step, seat))``, every choice of a step worked out
  before any is applied. *Random* games pick a uniform random legal option for
  every pending decision. Reported as games and choices applied per second;
  context, with no targets.
* **Flank perft** on the 8×8 board without stoppers (classic Othello; what
  ``croupier perft flank --board 8 --depth N`` runs), depths 6 and 7: leaves per
  second with bulk counting, and moves made per second playing every move
  (``bulk=False``; every move of the tree counts, so depth 6 makes
  4 + 12 + … + 8,200 = 9,912 moves). Target: ≥ 200,000 moves made per second.
  The counts must equal the published Othello figures (as in
  ``tests/test_flank_perft.py``) or the benchmark fails.
* **Hammer & Nails placements late in a game**: seeded 2-player workshop and
  space games played by the computer until the draw pile is down to
  :data:`LATE_DRAW` tiles, then every legal placement of the whole hand of the
  seat to move is generated from a cold stack (a copy with its cached frontier
  cleared), many times; the median in milliseconds, context.

Run it with ``python -m bench.rules`` or ``python -m bench rules``, or with every
other benchmark, ``make bench``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.figures import Figure, median_of, run_alone
from rules.core import Decision, GameInfo, GameState, thinking_rng
from rules.flank.perft import perft
from rules.flank.state import FlankState
from rules.nails.state import NailsState
from rules.registry import games, get_game

GROUP = "rules"
RUNS = 3
"""Timed runs of each measurement; figures are their medians."""
SEED = 20_240_601
DEFAULT_SEATS = {"flank": 2, "eclipse": 3, "nails": 2}
"""The seat counts the brief asks for, checked against each game's default."""
GAMES_PER_RUN: dict[tuple[str, str], int] = {
    ("flank", "computer"): 16, ("flank", "random"): 1_000,
    ("eclipse", "computer"): 6, ("eclipse", "random"): 60,
    ("nails", "computer"): 10, ("nails", "random"): 30,
    ("duel", "computer"): 30, ("duel", "random"): 20,
}
"""Seeded games per run, about a second's play each on the reference machine."""
RANDOM_TRIES = 20
"""Random picks tried per decision of another shape than one option."""
MAX_CHOICES = 20_000
"""A game that takes more choices than this is taken to be stuck."""

OTHELLO = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216)
"""Published Othello perft figures for depths 0–8 (see ``tests/test_flank_perft.py``)."""
PERFT_DEPTHS = (6, 7)
PERFT_RUNS = 5
PERFT_MIN_SECONDS = 0.3
"""Each perft run repeats the count until this much time has passed."""
MOVES_TARGET = 200_000

LATE_DRAW = 2
"""Play Hammer & Nails until the draw pile holds at most this many tiles."""
NAILS_DECKS = ("workshop", "space")
PLACEMENT_REPEATS = 300
"""Cold placement generations timed per run."""

Chooser = Callable[[GameInfo, GameState, int, random.Random], list[tuple[int, str]]]


# -- whole games --------------------------------------------------------------------------
def computer_choices(info: GameInfo, state: GameState, seed: int,
                     rng: random.Random) -> list[tuple[int, str]]:
    """The step's choices as the service makes them: forced ones at once, the rest by the
    computer player thinking on a copy with an RNG of its own."""
    moves = []
    for decision in state.pending():
        if decision.forced is not None:
            moves.append((decision.seat, decision.forced))
        else:
            think = thinking_rng(seed, state.step, decision.seat)
            moves.append((decision.seat, info.bot(state.copy(), decision.seat, think)))
    return moves


def random_choices(info: GameInfo, state: GameState, seed: int,
                   rng: random.Random) -> list[tuple[int, str]]:
    """A random legal choice for every pending decision: a uniform option, or for
    the other shapes a random pick, split or order that the rules accept (the
    computer's choice if a few tries find none, as a trample's split may)."""
    moves = []
    for decision in state.pending():
        if decision.pick == "one":
            moves.append((decision.seat, rng.choice(decision.options)))
            continue
        for _ in range(RANDOM_TRIES):
            try:
                choice = state.canonical(decision.seat, random_shape(decision, rng))
            except ValueError:
                continue
            break
        else:
            choice = info.bot(state.copy(), decision.seat,
                              thinking_rng(seed, state.step, decision.seat))
        moves.append((decision.seat, choice))
    return moves


def random_shape(decision: Decision, rng: random.Random) -> str:
    """A random choice of the decision's shape (several, split or order), which the
    rules may still refuse."""
    options = list(decision.options)
    if decision.pick == "several":
        count = rng.randint(decision.least, min(decision.most, len(options)))
        return ",".join(rng.sample(options, count))
    if decision.pick == "split":
        amounts = dict.fromkeys(options, 0)
        for _ in range(decision.total):
            amounts[rng.choice(options)] += 1
        return ",".join(f"{o}={n}" for o, n in amounts.items() if n)
    rng.shuffle(options)
    return ",".join(options)


def play(info: GameInfo, seed: int, choose: Chooser) -> int:
    """Play one seeded game with default options and seats to its end; the choices applied."""
    state = info.new({}, info.default_seats, seed)
    rng = random.Random(f"random:{seed}")
    applied = 0
    while not state.over:
        for seat, choice in choose(info, state, seed, rng):
            state.apply(seat, choice)
            applied += 1
        if applied > MAX_CHOICES:
            raise RuntimeError(f"{info.name} seed {seed}: no end after {applied} choices")
    return applied


@dataclass(frozen=True)
class GameRate:
    """Games and choices per second, medians of the runs."""

    games: int
    choices: int
    games_per_s: float
    choices_per_s: float


def game_rate(info: GameInfo, mode: str) -> GameRate:
    """Time :data:`RUNS` runs of the same seeded games; fails if the runs differ."""
    choose = computer_choices if mode == "computer" else random_choices
    count = GAMES_PER_RUN[(info.name, mode)]
    seeds = range(SEED, SEED + count)
    play(info, seeds[0], choose)  # warm-up: imports, caches
    elapsed, applied = [], []
    for _ in range(RUNS):
        started = time.perf_counter()
        total = sum(play(info, seed, choose) for seed in seeds)
        elapsed.append(time.perf_counter() - started)
        applied.append(total)
    if len(set(applied)) != 1:
        raise RuntimeError(f"{info.name} {mode} games are not reproducible: {applied} choices")
    return GameRate(count, applied[0], median_of([count / t for t in elapsed]),
                    median_of([applied[0] / t for t in elapsed]))


def game_figures() -> list[Figure]:
    """Computer and random games of every game, per second."""
    figures = []
    for name, info in sorted(games().items()):
        if name in DEFAULT_SEATS and info.default_seats != DEFAULT_SEATS[name]:
            raise RuntimeError(f"{name} now defaults to {info.default_seats} seats, "
                               f"not {DEFAULT_SEATS[name]}")
        for mode in ("computer", "random"):
            rate = game_rate(info, mode)
            note = (f"{info.default_seats} seats, default options; {rate.games} seeded games, "
                    f"{rate.choices / rate.games:.1f} choices a game; median of {RUNS} runs")
            figures.append(Figure(GROUP, f"{name}: {mode} games", rate.games_per_s, "games/s",
                                  note=note))
            figures.append(Figure(GROUP, f"{name}: {mode} choices applied", rate.choices_per_s,
                                  "choices/s", note=note))
    return figures


# -- Flank perft --------------------------------------------------------------------------
def othello_start() -> FlankState:
    """The 8×8 start without stoppers, made as the platform makes games."""
    state = get_game("flank").new({"board": 8, "stoppers": 0})
    assert isinstance(state, FlankState)
    return state


def perft_rate(state: FlankState, depth: int, *, bulk: bool) -> float:
    """Perft calls per second, median of :data:`PERFT_RUNS` runs; checks every count."""
    want = OTHELLO[depth]

    def counted() -> None:
        got = perft(state, depth, bulk=bulk)
        if got != want:
            raise RuntimeError(f"perft({depth}, bulk={bulk}) = {got:,}, Othello's is {want:,}")

    counted()  # warm-up
    rates = []
    for _ in range(PERFT_RUNS):
        calls = 0
        started = time.perf_counter()
        while True:
            counted()
            calls += 1
            elapsed = time.perf_counter() - started
            if elapsed >= PERFT_MIN_SECONDS:
                break
        rates.append(calls / elapsed)
    return median_of(rates)


def perft_figures() -> list[Figure]:
    """Leaves per second (bulk) and moves made per second (every move) at each depth."""
    state = othello_start()
    figures = []
    for depth in PERFT_DEPTHS:
        leaves = OTHELLO[depth]
        moves = sum(OTHELLO[1:depth + 1])
        bulk = perft_rate(state, depth, bulk=True)
        full = perft_rate(state, depth, bulk=False)
        figures.append(Figure(
            GROUP, f"Flank perft d{depth} leaves (bulk)", bulk * leaves, "leaves/s",
            note=f"8x8, no stoppers; {leaves:,} leaves checked; median of {PERFT_RUNS} runs"))
        figures.append(Figure(
            GROUP, f"Flank perft d{depth} moves made", full * moves, "moves/s",
            ">=", MOVES_TARGET,
            note=f"bulk=False; {moves:,} moves a count ({full * leaves:,.0f} leaves/s); "
                 f"median of {PERFT_RUNS} runs"))
    return figures


# -- Hammer & Nails placements ------------------------------------------------------------
def late_game(deck: str, seed: int) -> NailsState:
    """A 2-player game played by the computer until the draw pile is nearly empty."""
    info = get_game("nails")
    state = info.new({"deck": deck}, 2, seed)
    while len(state.draw) > LATE_DRAW:
        if state.over:
            raise RuntimeError(f"nails {deck} seed {seed} ended with {len(state.draw)} to draw")
        for seat, choice in computer_choices(info, state, seed, random.Random()):
            state.apply(seat, choice)
    if state.over or not state.pending():
        raise RuntimeError(f"nails {deck} seed {seed} has nobody to move late in the game")
    assert isinstance(state, NailsState)
    return state


def placement_figure(deck: str) -> Figure:
    """Median time to generate every placement of the hand to move, from a cold stack."""
    state = late_game(deck, SEED)
    seat = state.pending()[0].seat
    hand = [state.tiles[n] for n in state.hands[seat]]

    def generate() -> int:
        stack = state.stack.copy()
        stack.forget()
        return sum(1 for tile in hand for _ in stack.placements(tile))

    count = generate()
    medians = []
    for _ in range(RUNS):
        samples = []
        for _ in range(PLACEMENT_REPEATS):
            started = time.perf_counter()
            got = generate()
            samples.append((time.perf_counter() - started) * 1000.0)
            if got != count:
                raise RuntimeError(f"nails {deck}: {got} placements, then {count}")
        medians.append(statistics.median(samples))
    stack = state.stack
    note = (f"2 players, seed {SEED}, {len(state.draw)} left to draw, {state.phase} phase: "
            f"{len(stack.layers)} tiles on the stack ({len(stack.cells)} cells, "
            f"{len(stack.frontier())} anchors), hand of {len(hand)}, {count:,} placements; "
            f"median of {RUNS}×{PLACEMENT_REPEATS}")
    return Figure(GROUP, f"nails {deck}: late-game placements of a hand", median_of(medians),
                  "ms", note=note)


# -- the module ---------------------------------------------------------------------------
def run() -> list[Figure]:
    """Every figure of the rules core."""
    figures = game_figures()
    figures += perft_figures()
    figures += [placement_figure(deck) for deck in NAILS_DECKS]
    for f in figures:
        print(f"{f.name}: {f.shown} {f.unit} — {f.note}", flush=True)
    return figures


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
