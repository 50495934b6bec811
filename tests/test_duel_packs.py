"""Booster packs (specs/collections.md, "Getting cards"): 11 common, 3 uncommon, 1 rare, no
basic land, no card twice, the same pack for the same seed, and every card obtainable."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.duel.cards import card_set
from rules.duel.packs import (
    PACK,
    PACK_SIZE,
    RUN_SIZES,
    next_serial,
    open_pack,
    pack_pool,
    rarest_first,
)

PROFILE = settings(max_examples=300, deadline=None, derandomize=True, database=None)
NON_BASIC = {name for name, data in card_set().items() if data.basic is None}
MANY = 3000
"""Packs opened to see every card: the rarest slot has 1 of about 25 rares a pack."""


def check_pack(pulls: tuple[tuple[str, str], ...]) -> None:
    """Everything a single pack must be."""
    assert len(pulls) == PACK_SIZE == 15
    assert Counter(rarity for _, rarity in pulls) == Counter(PACK)
    names = [name for name, _ in pulls]
    assert len(set(names)) == len(names), "a card twice in one pack"
    for name, rarity in pulls:
        data = card_set()[name]
        assert data.basic is None, f"basic land {name} in a pack"
        assert data.rarity == rarity


def test_the_spec_numbers() -> None:
    assert PACK == {"common": 11, "uncommon": 3, "rare": 1}
    assert RUN_SIZES == {"rare": 100, "uncommon": 300, "common": 1000}


def test_a_pack_holds_what_the_spec_says() -> None:
    for seed in range(200):
        check_pack(open_pack(random.Random(seed)))


@PROFILE
@given(st.one_of(st.integers(), st.text(max_size=30), st.binary(max_size=30)))
def test_any_seed_opens_a_good_pack(seed: int | str | bytes) -> None:
    pulls = open_pack(random.Random(seed))
    check_pack(pulls)
    assert open_pack(random.Random(seed)) == pulls


def test_the_same_seed_gives_the_same_pack_and_others_differ() -> None:
    packs = {open_pack(random.Random(f"guild:{n}")) for n in range(100)}
    assert len(packs) == 100
    assert open_pack(random.Random("guild:7")) == open_pack(random.Random("guild:7"))


def test_the_pool_is_the_set_without_basic_lands() -> None:
    pool = pack_pool()
    assert {n for names in pool.values() for n in names} == NON_BASIC
    assert all(list(names) == sorted(names) for names in pool.values())


def test_every_card_but_basic_lands_can_be_pulled_about_evenly() -> None:
    rng = random.Random("every card")
    seen: Counter[str] = Counter()
    for _ in range(MANY):
        seen.update(name for name, _ in open_pack(rng))
    assert set(seen) == NON_BASIC
    pool = pack_pool()
    for rarity, count in PACK.items():
        expected = MANY * count / len(pool[rarity])
        for name in pool[rarity]:
            # Far looser than chance allows (a binomial's spread is √expected):
            # this catches a card favoured or starved, never a fair draw.
            assert 0.6 * expected < seen[name] < 1.4 * expected, (name, seen[name], expected)


def test_rarest_first_orders_by_rarity_then_name() -> None:
    pulls = open_pack(random.Random(3))
    shown = rarest_first(pulls)
    assert sorted(shown) == sorted(pulls)
    ranks = {"rare": 0, "uncommon": 1, "common": 2}
    keys = [(ranks[rarity], name) for name, rarity in shown]
    assert keys == sorted(keys)
    assert shown[0][1] == "rare" and [r for _, r in shown[1:4]] == ["uncommon"] * 3


def test_next_serial_stops_at_the_run() -> None:
    run = RUN_SIZES["rare"]
    serials = [next_serial(printed, run) for printed in range(run + 2)]
    assert serials[:run] == list(range(1, run + 1))
    assert serials[run:] == [None, None]
