"""Arcane Duel's card art follows the card's data: a landscape for a land, a sign for a
spell, cogs for an artifact, and for a creature a subject (a person, a beast, a bird, a
serpent, a spirit, a wall, a plant, a construct), winged exactly when it flies. A hedge
that only blocks is a plant, not a four-legged beast."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.games.duel.art as art_module
from bot.games.duel.art import (
    ART_PALETTES,
    CREATURES,
    LANDSCAPES,
    SUBJECTS,
    Motif,
    card_art,
    motif,
    subject,
)
from bot.games.duel.card import ART_BOX, card_image
from rules.duel.cards import CardDef, card, card_set
from tests.images import direct_text_calls

SET = card_set()


def expected_kind(data: CardDef) -> str | None:
    """The art's kind a card's type decides alone (``None`` for a creature, whose
    subject the table gives)."""
    if data.type == "land":
        return data.basic or "land"
    if data.type == "artifact creature":
        return "construct"
    if data.is_creature:
        return None
    if data.type == "artifact":
        return "artifact"
    if data.type in {"instant", "interrupt"}:
        return "bolt"
    if data.type == "sorcery":
        return "spiral"
    assert data.type == "enchantment" or data.type.startswith("enchant ")
    return "rings"


def test_every_cards_art_follows_its_type() -> None:
    for name, data in SET.items():
        drawn = motif(data)
        kind = expected_kind(data)
        if kind is not None:
            assert drawn.kind == kind, name
        else:
            assert drawn.kind in CREATURES and drawn.kind != "construct", name
        # Wings exactly on what flies; nothing that is not a creature has any.
        assert drawn.wings == (data.is_creature and "flying" in data.keywords), name
        assert (drawn.kind in CREATURES) == data.is_creature, name
        assert (drawn.kind in LANDSCAPES) == (data.type == "land"), name


def test_every_creature_has_a_subject_that_fits_its_data() -> None:
    creatures = {n for n, c in SET.items() if c.type == "creature"}
    assert set(SUBJECTS) == creatures  # a new creature is given a subject with its card
    assert set(SUBJECTS.values()) <= set(CREATURES) - {"construct"}
    for name, kind in SUBJECTS.items():
        data = SET[name]
        assert subject(data) == kind
        if kind == "bird":
            assert "flying" in data.keywords, name
        if kind in {"wall", "plant"}:  # rooted: never flies
            assert "flying" not in data.keywords, name
        if kind == "wall":  # strikes no blow
            assert data.power == 0, name
    # A creature of power 0 that holds the line is a wall or a plant, not an animal.
    for name in creatures:
        data = SET[name]
        if data.power == 0 and data.toughness is not None and data.toughness >= 3 \
                and "flying" not in data.keywords:
            assert SUBJECTS[name] in {"wall", "plant"}, name


@pytest.mark.parametrize("name, kind, wings", [
    ("Thornwall Hedge", "plant", False), ("Bastion Sentry", "wall", False),
    ("Burlheart Ancient", "plant", False), ("Emberward Knight", "person", False),
    ("Lantern Acolyte", "person", False), ("Halcyon Seraph", "person", True),
    ("Deepcoil Serpent", "serpent", False), ("Kessa Pyrewyrm", "serpent", True),
    ("Marrow Shade", "spirit", False), ("Stormcrest Roc", "bird", True),
    ("Burrtusk Boar", "beast", False), ("Stonegear Hulk", "construct", False),
    ("Brasswing Kestrel", "construct", True), ("Kindlewhip", "bolt", False),
    ("Murkfen", "swamp", False),
])
def test_cards_are_drawn_as_what_they_are(name: str, kind: str, wings: bool) -> None:
    assert motif(card(name)) == Motif(kind, wings)


def test_a_creature_the_table_does_not_know_gets_its_subject_from_its_data() -> None:
    def made(power: int, toughness: int, *keywords: str, type_: str = "creature") -> CardDef:
        return CardDef.model_construct(name="Unheard Of", cost="1G", type=type_,
                                       rarity="common", power=power, toughness=toughness,
                                       keywords=keywords)

    assert motif(made(0, 5)) == Motif("wall")
    assert motif(made(0, 1)) == Motif("beast")
    assert motif(made(2, 2, "flying")) == Motif("bird", wings=True)
    assert motif(made(3, 3)) == Motif("beast")
    assert motif(made(3, 3, type_="artifact creature")) == Motif("construct")


def test_each_subject_is_a_picture_of_its_own() -> None:
    w, h = ART_BOX[2] - ART_BOX[0], ART_BOX[3] - ART_BOX[1]
    palette = ART_PALETTES["G"]
    pictures = {kind: card_art("Thornwall Hedge", palette, Motif(kind), w, h).tobytes()
                for kind in CREATURES}
    assert len(set(pictures.values())) == len(CREATURES)
    for kind in CREATURES:
        winged = card_art("Thornwall Hedge", palette, Motif(kind, True), w, h).tobytes()
        assert winged != pictures[kind], kind
    # The card itself shows its subject's picture.
    x0, y0, x1, y1 = ART_BOX
    face = card_image("Thornwall Hedge").convert("RGB").crop(ART_BOX)
    assert face.tobytes() == card_art("Thornwall Hedge", palette, Motif("plant"),
                                      x1 - x0, y1 - y0).tobytes()


def test_the_art_draws_no_text() -> None:
    assert direct_text_calls(Path(art_module.__file__)) == []
