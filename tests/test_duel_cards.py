"""The Arcane Duel card set keeps the spec's set-wide rules (docs: specs/duel.md, "The set").

Every card file under ``rules/duel/cardsets/`` is read with :func:`card_set`, which
already checks each card against the schema; these tests check the set as a whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import get_args

import pytest

from rules.duel.cards import (
    BASIC_OF,
    COLOURS,
    KEYWORDS,
    CardDef,
    CardType,
    Effect,
    EffectKind,
    card_set,
)

CARDS: list[CardDef] = list(card_set().values())

AURA_KINDS = ("enchant land", "enchant artifact", "enchant enchantment")
"""Aura types that are rarer: once in the set is enough for them."""
KEYWORD_KINDS = (*KEYWORDS, "landwalk", "protection", "regeneration", "enhance")
"""Every creature ability the spec lists."""
RARITY_SHARES = {"common": (55, 10), "uncommon": (30, 10), "rare": (15, 7)}
"""Target percentage of the set and the tolerance either side."""
FORBIDDEN = ",=@>|"
"""Characters the engine's scenario notation uses, so never in a card name."""


def effects(card: CardDef) -> Iterator[Effect]:
    """Every effect a card has: spell, enters, upkeep and its abilities'."""
    yield from card.spell
    yield from card.enters
    yield from card.upkeep
    for ability in card.abilities:
        yield from ability.effects


def keyword_kinds(card: CardDef) -> set[str]:
    """The creature abilities a card prints: keywords (landwalk and protection by
    kind), a regeneration ability, mana-enhanced power."""
    kinds = {word.split(":", 1)[0] for word in card.keywords}
    if any(e.do == "regenerate" and e.target == "self"
           for ability in card.abilities for e in ability.effects):
        kinds.add("regeneration")
    if card.enhance:
        kinds.add("enhance")
    return kinds


def test_at_least_150_unique_cards() -> None:
    assert len(CARDS) >= 150
    assert len({c.name.casefold() for c in CARDS}) == len(CARDS)


@pytest.mark.parametrize("colour", COLOURS)
def test_each_colour_has_24_cards(colour: str) -> None:
    assert sum(1 for c in CARDS if c.colour == colour) >= 24


@pytest.mark.parametrize("colour", COLOURS)
def test_each_colour_has_the_spell_types(colour: str) -> None:
    """Creatures, instants, interrupts, sorceries and enchantments in every colour."""
    types = {c.type for c in CARDS if c.colour == colour}
    assert {"creature", "instant", "interrupt", "sorcery", "enchantment"} <= types, colour


def test_at_least_20_artifacts() -> None:
    artifacts = [c for c in CARDS if c.type in {"artifact", "artifact creature"}]
    assert len(artifacts) >= 20
    assert all(c.colour is None for c in artifacts)


def test_the_five_basic_lands() -> None:
    basics = [c for c in CARDS if c.basic is not None]
    assert sorted(c.basic for c in basics) == sorted(BASIC_OF.values())
    for land in basics:
        assert land.type == "land"
        assert land.produces == (next(k for k, v in BASIC_OF.items() if v == land.basic),)


def test_special_lands() -> None:
    special = [c for c in CARDS if c.type == "land" and c.basic is None]
    assert len(special) >= 3
    assert all(c.produces or c.abilities for c in special)


@pytest.mark.parametrize("kind", get_args(CardType))
def test_every_card_type_appears(kind: str) -> None:
    """Every type at least twice; the rarer auras at least once."""
    count = sum(1 for c in CARDS if c.type == kind)
    assert count >= (1 if kind in AURA_KINDS else 2), kind


@pytest.mark.parametrize("kind", KEYWORD_KINDS)
def test_every_creature_ability_on_three_cards(kind: str) -> None:
    holders = [c.name for c in CARDS if kind in keyword_kinds(c)]
    assert len(holders) >= 3, (kind, holders)
    assert all(card_set()[name].is_creature for name in holders)


@pytest.mark.parametrize("kind", get_args(EffectKind))
def test_every_effect_kind_on_two_cards(kind: str) -> None:
    holders = [c.name for c in CARDS if any(e.do == kind for e in effects(c))]
    assert len(holders) >= 2, (kind, holders)


def test_x_costs_are_used() -> None:
    assert sum(1 for c in CARDS if c.cost_parts.x) >= 3


def test_rarity_shares() -> None:
    counts = Counter(c.rarity for c in CARDS)
    for rarity, (share, slack) in RARITY_SHARES.items():
        percent = 100 * counts[rarity] / len(CARDS)
        assert share - slack <= percent <= share + slack, (rarity, round(percent, 1))


def test_names_are_notation_safe() -> None:
    for card in CARDS:
        assert 2 <= len(card.name) <= 40, card.name
        assert card.name == card.name.strip(), card.name
        assert not set(card.name) & set(FORBIDDEN), card.name


def test_every_card_has_rules_text() -> None:
    for card in CARDS:
        text = card.text()
        assert text.strip(), card.name
        assert "  " not in text and ".." not in text, (card.name, text)


def test_only_interrupts_counter() -> None:
    for card in CARDS:
        if any(e.do == "counter" for e in effects(card)):
            assert card.type == "interrupt", card.name
