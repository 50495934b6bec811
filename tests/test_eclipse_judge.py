"""Eclipse's judging tree, table-driven, from /work/shared/specs/eclipse.md
("A hand", steps 2–3, and "Checks the engine must pass").

Cards are hand-built in a short form, ``"S7m bolt"`` = sun, 7, ♂, bolt, so each
row states exactly what it tests; a few rows use the standard deck (``std``).
"""

from __future__ import annotations

from itertools import product

import pytest

from bot.i18n import say
from rules.eclipse.cards import Card, standard_deck
from rules.eclipse.judge import judge, settle

# The spec's emblems, highest priority first, and their maneuver maxima.
SPEC_EMBLEMS = ("shield", "bolt", "cog", "butterfly", "star")
SPEC_MAX = {"shield": 1, "bolt": 2, "cog": 3, "butterfly": 4, "star": 5}
SPEC_OFFSETS = {("sun", "male"): 0, ("sun", "female"): 1,
                ("moon", "male"): 2, ("moon", "female"): 3}

Numbers = tuple[tuple[int, ...], tuple[int, ...]]


def c(text: str) -> Card:
    """A hand-built card from ``"S7m bolt"``: top letter, number, bottom letter, emblem."""
    code, emblem = text.split()
    top = {"S": "sun", "M": "moon"}[code[0]]
    bottom = {"m": "male", "f": "female"}[code[-1]]
    return Card(0, top, bottom, emblem, int(code[1:-1]))


def std(code: str) -> Card:
    """A card of the standard deck, e.g. ``std("S13f")``."""
    return standard_deck().card_by_code(code)


def r(emblem: str, female: bool = False) -> tuple[int, ...]:
    """An emblem's allowed range: 1..max for a ♂ card, 0..max for a ♀ card."""
    return tuple(range(0 if female else 1, SPEC_MAX[emblem] + 1))


A, D = "attacker", "defender"

# attacker, defender, allowed numbers (None: the cards decide), presented, winner,
# branch, words the final verdict's text must mention.
ROWS = [
    # --- 2. tops differ: the attacker wins whatever else the cards show
    pytest.param(c("M1m star"), c("S15m shield"), None, None, A, "tops", ("moon", "sun"),
                 id="tops-differ/defender-better-emblem-and-number"),
    pytest.param(c("S2f star"), c("M15f shield"), None, None, A, "tops", (),
                 id="tops-differ/defender-female-no-parity"),
    pytest.param(c("S4m bolt"), c("M5m bolt"), None, None, A, "tops", (),
                 id="tops-differ/would-be-maneuver"),
    pytest.param(c("M3f cog"), c("S3m cog"), None, None, A, "tops", (),
                 id="tops-differ/attacker-female"),
    # --- male branch: emblems differ → higher priority wins, numbers don't matter
    pytest.param(c("S1m shield"), c("S15m bolt"), None, None, A, "male", ("shield", "bolt"),
                 id="male/emblem/shield>bolt-attacker"),
    pytest.param(c("S15m bolt"), c("S1m shield"), None, None, D, "male", ("shield", "bolt"),
                 id="male/emblem/shield>bolt-defender"),
    pytest.param(c("M3m bolt"), c("M9m cog"), None, None, A, "male", ("bolt", "cog"),
                 id="male/emblem/bolt>cog-attacker"),
    pytest.param(c("S12m butterfly"), c("S2m cog"), None, None, D, "male", ("cog", "butterfly"),
                 id="male/emblem/cog>butterfly-defender"),
    pytest.param(c("M2m butterfly"), c("M14m star"), None, None, A, "male",
                 ("butterfly", "star"), id="male/emblem/butterfly>star-attacker"),
    pytest.param(c("S14m star"), c("S2m butterfly"), None, None, D, "male", (),
                 id="male/emblem/butterfly>star-defender"),
    pytest.param(c("S15m star"), c("S1m shield"), None, None, D, "male", (),
                 id="male/emblem/shield>star-defender"),
    pytest.param(c("S1f shield"), c("S9m cog"), None, None, A, "male", (),
                 id="male/emblem/attacker-female-shield>cog"),
    pytest.param(c("S9f star"), c("S1m bolt"), None, None, D, "male", (),
                 id="male/emblem/attacker-female-star<bolt"),
    # --- male branch: same shield → higher number (even at difference 1 = max)
    pytest.param(c("S9m shield"), c("S8m shield"), None, None, A, "male", (),
                 id="male/shield/attacker-higher-by-1"),
    pytest.param(c("M3m shield"), c("M12m shield"), None, None, D, "male", (),
                 id="male/shield/defender-higher"),
    pytest.param(c("S6m shield"), c("S6m shield"), None, None, D, "male", (),
                 id="male/shield/equal-to-defender"),
    pytest.param(c("S7f shield"), c("S6m shield"), None, None, A, "male", (),
                 id="male/shield/attacker-female-higher"),
    pytest.param(c("M4f shield"), c("M4m shield"), None, None, D, "male", (),
                 id="male/shield/attacker-female-equal-to-defender"),
    # --- male branch: same emblem, |difference| = max + 1 → higher number
    pytest.param(c("S8m bolt"), c("S5m bolt"), None, None, A, "male", (),
                 id="male/over-max/bolt-3-attacker"),
    pytest.param(c("S5m bolt"), c("S8m bolt"), None, None, D, "male", (),
                 id="male/over-max/bolt-3-defender"),
    pytest.param(c("M10m cog"), c("M6m cog"), None, None, A, "male", (),
                 id="male/over-max/cog-4-attacker"),
    pytest.param(c("S1m butterfly"), c("S6m butterfly"), None, None, D, "male", (),
                 id="male/over-max/butterfly-5-defender"),
    pytest.param(c("S15m star"), c("S9m star"), None, None, A, "male", (),
                 id="male/over-max/star-6-attacker"),
    pytest.param(c("M3m star"), c("M9m star"), None, None, D, "male", (),
                 id="male/over-max/star-6-defender"),
    pytest.param(c("S8f bolt"), c("S5m bolt"), None, None, A, "male", (),
                 id="male/over-max/attacker-female-bolt-3"),
    pytest.param(c("S1m cog"), c("S15m cog"), None, None, D, "male", (),
                 id="male/over-max/cog-14-defender"),
    # --- male branch maneuver (|difference| ≤ max): presented differ → higher card number
    pytest.param(c("S5m bolt"), c("S7m bolt"), (r("bolt"), r("bolt")), (1, 2), D, "male", (),
                 id="male/maneuver/bolt-diff-2=max/differ-defender-higher"),
    pytest.param(c("M9m cog"), c("M6m cog"), (r("cog"), r("cog")), (3, 1), A, "male", (),
                 id="male/maneuver/cog-diff-3=max/differ-attacker-higher"),
    pytest.param(c("S5f cog"), c("S6m cog"), (r("cog", True), r("cog")), (0, 1), D, "male", (),
                 id="male/maneuver/attacker-female-0/differ-defender-higher"),
    pytest.param(c("M6f star"), c("M4m star"), (r("star", True), r("star")), (0, 3), A, "male", (),
                 id="male/maneuver/attacker-female-0/differ-attacker-higher"),
    # --- presented equal: s = a + b; lower card + s vs higher card − s
    pytest.param(c("S2m butterfly"), c("S6m butterfly"), (r("butterfly"), r("butterfly")),
                 (2, 2), A, "male", (), id="male/maneuver/butterfly-diff-4=max/equal-lower-wins"),
    pytest.param(c("S6m cog"), c("S4m cog"), (r("cog"), r("cog")), (2, 2), D, "male", (),
                 id="male/maneuver/equal-lower-defender-wins"),
    pytest.param(c("S3f bolt"), c("S4m bolt"), (r("bolt", True), r("bolt")), (2, 2), A, "male", (),
                 id="male/maneuver/attacker-female/equal-lower-attacker-wins"),
    pytest.param(c("S7m star"), c("S2m star"), (r("star"), r("star")), (1, 1), A, "male", (),
                 id="male/maneuver/star-diff-5=max/equal-higher-attacker-wins"),
    pytest.param(c("M2m star"), c("M7m star"), (r("star"), r("star")), (1, 1), D, "male", (),
                 id="male/maneuver/star-diff-5/equal-higher-defender-wins"),
    pytest.param(c("S3m star"), c("S7m star"), (r("star"), r("star")), (1, 1), D, "male", (),
                 id="male/maneuver/equal-totals-attacker-lower-to-defender"),
    pytest.param(c("S7m butterfly"), c("S3m butterfly"), (r("butterfly"), r("butterfly")),
                 (1, 1), D, "male", (),
                 id="male/maneuver/equal-totals-attacker-higher-to-defender"),
    # --- maneuver with equal card numbers → defender
    pytest.param(c("S5m bolt"), c("S5m bolt"), (r("bolt"), r("bolt")), (2, 1), D, "male", (),
                 id="male/maneuver/equal-cards/presented-differ-to-defender"),
    pytest.param(c("M8m star"), c("M8m star"), (r("star"), r("star")), (3, 3), D, "male", (),
                 id="male/maneuver/equal-cards/presented-equal-to-defender"),
    pytest.param(c("S8f butterfly"), c("S8m butterfly"), (r("butterfly", True), r("butterfly")),
                 (0, 4), D, "male", (), id="male/maneuver/equal-cards/attacker-female-to-defender"),
    # --- female branch: own emblem ranges; total parity (even → attacker, odd → defender)
    pytest.param(c("S13m butterfly"), c("S10f bolt"), (r("butterfly"), r("bolt", True)),
                 (4, 1), A, "female", ("28", "even"), id="female/seed-example-13+10+4+1=28-even"),
    pytest.param(c("S13m butterfly"), c("S10f bolt"), (r("butterfly"), r("bolt", True)),
                 (4, 2), D, "female", ("29", "odd"), id="female/seed-cards-29-odd"),
    pytest.param(c("M3f cog"), c("M4f bolt"), (r("cog", True), r("bolt", True)),
                 (0, 0), D, "female", ("7", "odd"), id="female/both-present-0-odd"),
    pytest.param(c("M3f cog"), c("M4f bolt"), (r("cog", True), r("bolt", True)),
                 (0, 1), A, "female", ("8", "even"), id="female/attacker-0-even"),
    pytest.param(c("S6m shield"), c("S9f star"), (r("shield"), r("star", True)),
                 (1, 0), A, "female", (),
                 id="female/male-shield-attacker-only-1-even"),
    pytest.param(c("M2f shield"), c("M7f shield"), (r("shield", True), r("shield", True)),
                 (1, 1), D, "female", (), id="female/female-shields-do-maneuver-odd"),
    pytest.param(c("S4m star"), c("S4f shield"), (r("star"), r("shield", True)),
                 (4, 0), A, "female", (),
                 id="female/emblems-ignored-shield-defender-loses-even"),
    pytest.param(c("S4m star"), c("S4f shield"), (r("star"), r("shield", True)),
                 (5, 0), D, "female", (),
                 id="female/emblems-ignored-odd"),
    pytest.param(c("S5f cog"), c("S5f cog"), (r("cog", True), r("cog", True)),
                 (1, 1), A, "female", (),
                 id="female/equal-cards-parity-still-decides-even"),
    # --- standard-deck cards (emblems from the spec's formula)
    pytest.param(std("S3m"), std("M3m"), None, None, A, "tops", (),
                 id="std/S3m-vs-M3m-tops-differ"),
    pytest.param(std("S2m"), std("S3m"), None, None, A, "male", ("cog", "butterfly"),
                 id="std/S2m-cog-vs-S3m-butterfly"),
    pytest.param(std("S5m"), std("S10m"), None, None, D, "male", (),
                 id="std/S5m-vs-S10m-shields"),
    pytest.param(std("S1m"), std("S6m"), None, None, D, "male", (),
                 id="std/S1m-vs-S6m-bolts-diff-5"),
    pytest.param(std("S4m"), std("S9m"), (r("star"), r("star")), (1, 1), D, "male", (),
                 id="std/S4m-vs-S9m-stars-maneuver-equal-higher-wins"),
    pytest.param(std("S8f"), std("S9m"), (r("star", True), r("star")), (2, 2), A, "male", (),
                 id="std/S8f-vs-S9m-stars-maneuver-equal-lower-wins"),
    pytest.param(std("S13f"), std("S10f"), (r("star", True), r("bolt", True)), (4, 1), A, "female",
                 ("28", "even"), id="std/S13f-vs-S10f-seed-example"),
]


@pytest.mark.parametrize(
    ("attacker", "defender", "allowed", "presented", "winner", "branch", "words"), ROWS)
def test_judging_tree(attacker: Card, defender: Card, allowed: Numbers | None,
                      presented: tuple[int, int] | None, winner: str, branch: str,
                      words: tuple[str, ...]) -> None:
    """judge asks for numbers exactly when needed; settle gives the spec's winner."""
    first = judge(attacker, defender)
    assert first.branch == branch
    if allowed is None:
        assert first.winner == winner
        assert first.numbers is None
        final = settle(attacker, defender)
    else:
        assert first.winner is None
        assert first.numbers == allowed
        assert presented is not None
        final = settle(attacker, defender, *presented)
    assert final.winner == winner
    assert final.branch == branch
    for word in words:
        assert word in say(final.text, "en")


@pytest.mark.parametrize(("attacker", "defender", "presented"), [
    pytest.param(c("S5m bolt"), c("S6m bolt"), (0, 1), id="male/male-attacker-0"),
    pytest.param(c("S5m bolt"), c("S6m bolt"), (1, 0), id="male/male-defender-0"),
    pytest.param(c("S5m bolt"), c("S6m bolt"), (3, 1), id="male/above-max"),
    pytest.param(c("S5f bolt"), c("S6m bolt"), (3, 1), id="male/female-attacker-above-max"),
    pytest.param(c("S5m bolt"), c("S6m bolt"), (-1, 1), id="male/negative"),
    pytest.param(c("S5m bolt"), c("S6m bolt"), (None, None), id="male/missing"),
    pytest.param(c("S13m butterfly"), c("S10f bolt"), (0, 1), id="female/male-attacker-0"),
    pytest.param(c("S13m butterfly"), c("S10f bolt"), (1, 3),
                 id="female/defender-uses-attacker-range"),
    pytest.param(c("S4m bolt"), c("S4f star"), (3, 0), id="female/attacker-uses-defender-range"),
    pytest.param(c("M2f shield"), c("M7f shield"), (0, 2), id="female/female-shield-2"),
    pytest.param(c("S6m shield"), c("S9f star"), (2, 0), id="female/male-shield-2"),
    pytest.param(c("S6m shield"), c("S9f star"), (0, 0), id="female/male-shield-0"),
    pytest.param(c("S13m butterfly"), c("S10f bolt"), (4, None), id="female/missing-defender"),
])
def test_settle_refuses_numbers_outside_range(attacker: Card, defender: Card,
                                              presented: tuple[int | None, int | None]) -> None:
    """Numbers outside a side's allowed range are refused."""
    with pytest.raises(ValueError):
        settle(attacker, defender, *presented)


def test_standard_deck_matches_spec_formula() -> None:
    """72 cards: 60 symbol cards by the spec's emblem formula, 12 followers."""
    deck = standard_deck()
    assert len(deck.cards) == 72
    symbols = [card for card in deck.cards if not card.follower]
    followers = [card for card in deck.cards if card.follower]
    assert len(symbols) == 60
    assert len(followers) == 12
    assert all(f.bottom is None and f.emblem is None for f in followers)
    keys = [(card.top, card.bottom, card.number) for card in symbols]
    assert sorted(keys) == sorted(product(("sun", "moon"), ("male", "female"), range(1, 16)))
    for card in symbols:
        offset = SPEC_OFFSETS[card.top, card.bottom]
        assert card.emblem == SPEC_EMBLEMS[(card.number + offset) % 5], card.code
    s13f = std("S13f")
    assert (s13f.top, s13f.number, s13f.bottom, s13f.emblem) == ("sun", 13, "female", "star")
