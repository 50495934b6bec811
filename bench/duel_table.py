"""Arcane Duel's pictures and memory: how long a card, a hand and a busy table take to
draw, and how much memory a duel in progress holds.

The issue asks for a battlefield picture and a card picture each in ≤ 100 ms. Positions
come from seeded random duels (:func:`bench.duel.new_duel`, :func:`bench.duel.random_choice`)
played to mid-game; the busiest (most permanents) of each duel's turns is the
"busy battlefield". Figures are medians of :data:`REPEATS` timed renders:

* **card**: :func:`bot.games.duel.card.render_card` of a card never drawn before (every
  cache cleared first: face, art, mana circles), over :data:`CARDS` cards of the set;
  and the same card again once cached (context);
* **hand of 7**: :func:`bot.games.duel.hand.render_hand` of a mid-game duel's seven cards,
  some castable, the faces already cached (a DM's hand is redrawn as it changes), and
  with every cache cleared first;
* **busy battlefield**: :func:`bot.games.duel.battlefield.render_battlefield` of the busy positions
  from a spectator's view, its tiles cached from the previous update (how the bot draws
  a duel's table again and again), and with every cache cleared first.

* **pack picture**: :func:`bot.games.duel.collection.render_pack` of a seeded pack of
  15 (a third limited, with serials), every cache cleared first (a pack is new cards);
  and the same pack again (context);
* **deck picture**: :func:`bot.games.duel.collection.render_deck` of a 40-card starter,
  its name bars cached (a deck is shown again as it is built); and with every cache
  cleared first (context).

The times are absolute speeds, so they are reported beside the 100 ms target (issue 16's,
for the card, the hand and the battlefield; the pack and the deck have none yet) without
gating (see :mod:`bench.figures`). **Memory per active duel** is what :mod:`tracemalloc`
counts for :data:`DUELS_IN_MEMORY` duel states played to turn :data:`MID_TURN`, each
with one observation of it kept, divided by their number (KiB; reported, no target).
Run it with ``python -m bench.duel_table`` or ``python -m bench duel_table``.
"""

from __future__ import annotations

import gc
import random
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import bot.games.duel.card as card_pictures
import bot.games.duel.collection as collection
import bot.games.duel.hand as hand_pictures
import bot.games.duel.permanents as tile_pictures
from bench.duel import SEED, new_duel, random_choice
from bench.figures import Figure, median_of, run_alone
from bot.games.duel.art import card_art
from bot.games.duel.battlefield import render_battlefield
from bot.games.duel.frames import mana_symbol
from bot.games.duel.hand import render_hand
from rules.duel.cards import card_set
from rules.duel.decks import STARTERS, starter
from rules.duel.packs import RUN_SIZES, open_pack
from rules.duel.state import DuelState, DuelView

GROUP = "duel pictures"
TARGET_MS = 100.0
REPEATS = 15
"""Timed renders of each picture; figures are medians."""
CARDS = 15
"""Cards drawn from nothing for the "card, first time" figure."""
POSITIONS = 4
"""Seeded duels whose busiest mid-game table is drawn."""
MID_TURN = 10
"""A duel is "mid-game" from this turn on."""
BUSY_TURNS = 40
"""The busy tables are looked for up to this turn (random players build slowly)."""
DUELS_IN_MEMORY = 100
MAX_CHOICES = 20_000
NAMES = ("Ada", "Bo", "Cy", "Dee")


def clear_caches() -> None:
    """Forget every drawn face, tile, art and symbol: the next picture starts cold."""
    for cached in (card_pictures._face, card_art, mana_symbol, card_pictures._png,
                   hand_pictures._dimmed,
                   tile_pictures._tile_base, hand_pictures._tick):
        cached.cache_clear()


def mid_game(n: int, turn: int = MID_TURN) -> DuelState:
    """Duel ``n`` played by random players until turn ``turn`` begins (or it ends)."""
    state = new_duel(n)
    rng = random.Random(f"pictures:{SEED + n}")
    for _ in range(MAX_CHOICES):
        if state.over or state.turn >= turn:
            return state
        decision = state.pending()[0]
        state.apply(decision.seat, random_choice(state, decision, rng))
    raise RuntimeError(f"duel {n}: not at turn {turn} after {MAX_CHOICES} choices")


def busy_position(n: int, turns: int = BUSY_TURNS) -> DuelView:
    """The spectator's view of the most crowded moment of duel ``n`` up to ``turns``
    (ties: the first), mid-attack moments preferred."""
    state = new_duel(n)
    rng = random.Random(f"busy:{SEED + n}")
    best: tuple[int, DuelView] | None = None
    for _ in range(MAX_CHOICES):
        if state.over or state.turn >= turns:
            break
        decision = state.pending()[0]
        state.apply(decision.seat, random_choice(state, decision, rng))
        crowd = len(state.battlefield) + 5 * (state.combat is not None) + 3 * len(state.stack)
        if best is None or crowd > best[0]:
            best = (crowd, state.observe(None))
    assert best is not None
    return best[1]


def _median_ms(work: Callable[[], object], repeats: int, before: Callable[[], None] | None
               = None) -> float:
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000.0)
    return median_of(times)


@dataclass(frozen=True)
class Speeds:
    """Median milliseconds of each picture."""

    card_cold: float
    card_warm: float
    hand_warm: float
    hand_cold: float
    table_warm: float
    table_cold: float
    permanents: float
    """Mean permanents on the busy tables."""


def speeds(repeats: int = REPEATS, cards: int = CARDS, positions: int = POSITIONS) -> Speeds:
    """Time each picture (see the module's text)."""
    names = sorted(card_set())
    chosen = [names[k * len(names) // cards] for k in range(cards)]
    cold_cards = []
    for name in chosen:  # each card from nothing, once: a median over cards
        clear_caches()
        started = time.perf_counter()
        card_pictures.render_card(name)
        cold_cards.append((time.perf_counter() - started) * 1000.0)
    card_warm = _median_ms(lambda: card_pictures.render_card(chosen[0]), repeats)

    state = mid_game(0)
    hand = [state.cards[c] for c in state.players[0].hand][:7]
    hand += [n for n in chosen if n not in hand][: 7 - len(hand)]
    playable = set(hand[::2])
    hand_warm = _median_ms(lambda: render_hand(hand, playable), repeats)
    hand_cold = _median_ms(lambda: render_hand(hand, playable), repeats, clear_caches)

    views = [busy_position(n) for n in range(positions)]
    seats = [NAMES[: len(v.players)] for v in views]
    for view, who in zip(views, seats, strict=True):  # the previous update drew its tiles
        render_battlefield(view, who)
    warm = [_median_ms(lambda v=view, w=who: render_battlefield(v, w), repeats)
            for view, who in zip(views, seats, strict=True)]
    cold = [_median_ms(lambda v=view, w=who: render_battlefield(v, w), max(3, repeats // 3),
                       clear_caches) for view, who in zip(views, seats, strict=True)]
    permanents = sum(len(v.battlefield) for v in views) / len(views)
    return Speeds(median_of(cold_cards), card_warm, hand_warm, hand_cold, median_of(warm),
                  median_of(cold), permanents)


def memory_per_duel(count: int = DUELS_IN_MEMORY) -> float:
    """KiB that ``count`` duels at turn :data:`MID_TURN`, each with an observation, hold
    together, divided by ``count`` (card data and imports loaded beforehand)."""
    mid_game(0, turn=2)  # load the card set, decks and every module first
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = []
        for n in range(count):
            state = mid_game(n)
            kept.append((state, state.observe(None)))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(kept) == count
    return held / count / 1024.0


def figures(got: Speeds, memory: float, duels: int, repeats: int) -> list[Figure]:
    """The figures of the pictures and of memory."""
    return [
        Figure(GROUP, "card picture, first time", got.card_cold, "ms", "<=", TARGET_MS, gates=False,
               note=f"render_card, every cache cleared before each; median over {CARDS} "
                    "cards of the set"),
        Figure(GROUP, "card picture, again", got.card_warm, "ms",
               note=f"the same card again (its PNG is cached); median of {repeats}"),
        Figure(GROUP, "hand of 7", got.hand_warm, "ms", "<=", TARGET_MS, gates=False,
               note=f"render_hand of a mid-game hand, some castable, faces cached; "
                    f"median of {repeats}"),
        Figure(GROUP, "hand of 7, caches cleared", got.hand_cold, "ms",
               note=f"the same hand, every cache cleared before each; median of {repeats}"),
        Figure(GROUP, "busy battlefield", got.table_warm, "ms", "<=", TARGET_MS, gates=False,
               note=f"render_battlefield of the busiest moment of {POSITIONS} seeded random "
                    f"duels ({got.permanents:.0f} permanents on average), tiles cached by the "
                    f"previous update; median of {repeats} each, median of those"),
        Figure(GROUP, "busy battlefield, caches cleared", got.table_cold, "ms",
               note="the same tables, every cache cleared before each"),
        Figure(GROUP, "memory per active duel", memory, "KiB",
               note=f"tracemalloc of {duels} seeded duels at turn {MID_TURN} with one "
                    "observation each, divided by their number"),
    ]


def measure(repeats: int = REPEATS, cards: int = CARDS, positions: int = POSITIONS,
            duels: int = DUELS_IN_MEMORY) -> list[Figure]:
    """Every figure, from the given numbers of renders, positions and duels."""
    return figures(speeds(repeats, cards, positions), memory_per_duel(duels), duels, repeats)


PACKS = 9
"""Seeded packs drawn from nothing for the "pack picture" figure."""


def collection_figures(repeats: int = REPEATS, packs: int = PACKS) -> list[Figure]:
    """How long a pack just opened and a starter deck take to draw
    (:mod:`bot.games.duel.collection`). A pack is new cards each time, so its figure
    with the target is drawn from nothing (every cache cleared before each of ``packs``
    seeded packs, a third of their copies limited); a deck is shown again and again
    as it is built, so its target figure is warm, and from nothing is context."""
    def pack(n: int) -> list[tuple[str, str, int | None, int | None]]:
        return [(name, "limited", k + 1, RUN_SIZES[rarity]) if k % 3 == 0
                else (name, "unlimited", None, None)
                for k, (name, rarity) in enumerate(open_pack(random.Random(f"pack:{n}")))]

    def clear_all() -> None:
        clear_caches()
        collection._pack_card_in.cache_clear()
        collection._strip_in.cache_clear()

    collection.render_pack(pack(packs))  # fonts and modules loaded before the first timing
    cold_packs = []
    for n in range(packs):
        opened = pack(n)
        clear_all()
        started = time.perf_counter()
        collection.render_pack(opened)
        cold_packs.append((time.perf_counter() - started) * 1000.0)
    pack_warm = _median_ms(lambda: collection.render_pack(pack(0)), repeats)
    deck = Counter(starter(next(iter(STARTERS))))
    deck_warm = _median_ms(lambda: collection.render_deck(deck, "Starter"), repeats)
    deck_cold = _median_ms(lambda: collection.render_deck(deck, "Starter"),
                           max(3, repeats // 3), clear_all)
    return [
        Figure(GROUP, "pack picture", median_of(cold_packs), "ms",
               note=f"render_pack of 15 cards, every cache cleared before each; median over "
                    f"{packs} seeded packs"),
        Figure(GROUP, "pack picture, again", pack_warm, "ms",
               note=f"the same pack again, its cards cached; median of {repeats}"),
        Figure(GROUP, "deck picture", deck_warm, "ms",
               note=f"render_deck of a 40-card starter ({len(deck)} different cards), name "
                    f"bars cached; median of {repeats}"),
        Figure(GROUP, "deck picture, caches cleared", deck_cold, "ms",
               note="the same deck, every cache cleared before each"),
    ]


def run() -> list[Figure]:
    """Every figure of Arcane Duel's pictures and memory."""
    got = measure() + collection_figures()
    for f in got:
        print(f"{f.name}: {f.shown} {f.unit} — {f.note}", flush=True)
    return got


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
