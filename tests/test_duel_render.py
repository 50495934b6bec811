"""Arcane Duel's pictures: every card of the set, a hand, and the public table in
positions of 2 and 4 players (stack, attack with blocks and a band, tapped and damaged
creatures, auras, a player out)."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import bot.games.duel.frames as duel_render
from bench.duel import new_duel, random_choice
from bot.games.duel.art import seed
from bot.games.duel.battlefield import WIDTH, draw_battlefield, render_battlefield
from bot.games.duel.card import (
    ART_BOX,
    BORDER,
    CARD_H,
    CARD_W,
    EDITION_BORDER,
    NAME_BAR,
    card_image,
    draw_face,
    render_card,
)
from bot.games.duel.frames import FRAMES, frame_kind
from bot.games.duel.hand import HAND_DY, PLAYABLE, draw_hand, render_hand
from bot.games.duel.permanents import TILE_H, TILE_W, Marks, _tile
from bot.i18n import pseudo, speaking
from bot.i18n.cards import card_name
from bot.pictures.common import MAX_SIDE, PHONE_WIDTH
from rules.duel.cards import CardDef, card, card_set
from rules.duel.notation import act, parse
from rules.duel.state import DuelState, DuelView
from tests.images import count, direct_text_calls, drawn_text, near, opened, undrawable
from tests.pseudo import pictures_checked

SET = sorted(card_set())
FRAME_AT = (BORDER + 4, CARD_H // 2)
"""A pixel of the frame: left of the art and text boxes, inside the edition's border."""
BORDER_AT = (BORDER // 2, CARD_H // 2)
NAMES = ["Ada", "Bo", "Cy", "Dee"]
ODD_NAMES = ["Ada 🎲🎲", "Zoë — Ærø", "博士", "👍🏽 " + "x" * 60]

FOUR = ("5 p1 main // p1 20 | lib 10 | hand Kindlewhip | gy - | play 1 Ashpeak, 2 Ashpeak, "
        "3 Ashpeak, 4 Ridgeline Lancers, 5 Kiln-Tempered Edge @4, 6 Torchbearer Militia, "
        "14 Magma Ridgeback T D2 R1 "
        "// p2 14 | lib 8 | hand Halcyon Seraph | gy Kindlewhip | play 7 Mossvale, "
        "8 Mossvale T, 9 Burlheart Ancient, 10 Everbloom Moss @9, 15 Thornwall Hedge "
        "// p3 3 | lib 3 | hand Tombhaunt Lich | gy - | play - "
        "// p4 9 | lib 5 | hand - | gy - | play 11 Dawnfield, 12 Bastion Sentry T D1 R1, "
        "13 Sunblessed Acre @11")
"""Four players: p1 attacks p2 with a band (4+6), which two creatures block; a
Kindlewhip is then cast at a blocker; auras on a creature and a land; tapped, damaged and
shielded creatures."""


def four_players() -> tuple[DuelState, DuelView]:
    """:data:`FOUR` played to the stack over the blocks, and its spectator's view with p3
    out of the game."""
    state = parse(FOUR)
    act(state, "attack 4,6 band 4+6 @p2")
    while state.pending()[0].kind == "priority":
        state.apply(state.pending()[0].seat, "pass")
    act(state, "block 9>4,15>4")
    act(state, "cast Kindlewhip @15")
    view = state.observe(None)
    players = tuple(dict(p, lost=seat == 2) for seat, p in enumerate(view.players))
    return state, dataclasses.replace(view, players=players)


def two_players() -> DuelState:
    """A seeded random duel of two at its first attack with blockers and a crowd."""
    state = new_duel(3)
    rng = random.Random(3)
    for _ in range(3000):
        decision = state.pending()[0]
        state.apply(decision.seat, random_choice(state, decision, rng))
        combat = state.combat
        if combat is not None and any(combat.blocks.values()) and len(state.battlefield) > 10:
            return state
    raise AssertionError("no attack with blockers")


def differs(a: Image.Image, b: Image.Image) -> bool:
    return a.size != b.size or ImageChops.difference(a.convert("RGB"),
                                                     b.convert("RGB")).getbbox() is not None


# --- cards ---------------------------------------------------------------------------------


def test_every_card_renders_from_its_data_without_rarity() -> None:
    duel_render.mana_symbol.cache_clear()  # a symbol drawn earlier would not be drawn again
    with drawn_text() as calls:
        faces = {name: draw_face(card(name)) for name in SET}
    assert len(faces) == 161
    for name, face in faces.items():
        assert face.size == (CARD_W, CARD_H) and face.mode == "RGBA"
        assert len(face.getcolors(CARD_W * CARD_H) or ()) > 50, name  # not blank
        assert face.getpixel((0, 0))[3] == 0  # rounded corners
    drawn = {call.text for call in calls}
    assert not {t for t in drawn if re.search(r"\b(common|uncommon|rare)\b", t.lower())}
    assert not undrawable(calls)
    assert {"Kindlewhip", "R", "Instant", "Deal 2 damage to any target."} <= drawn
    assert {"Nightspire Baron", "4", "B", "Creature", "Flying.", "4/4"} <= drawn
    assert {"Basic land - swamp", "Tap: Add black mana."} <= drawn
    assert {"X", "Artifact (poly)"} <= drawn


def test_a_card_picture_is_a_png_of_the_card_and_the_same_every_time() -> None:
    for name in ("Kindlewhip", "Spectrum Loom", "Murkfen"):
        first = render_card(name)
        assert opened(first).size == (CARD_W, CARD_H)
        assert draw_face(card(name)).tobytes() == draw_face(card(name)).tobytes()
        duel_render.card_art.cache_clear()
        assert draw_face(card(name)).tobytes() == card_image(name).tobytes()
    assert card_image("Kindlewhip") is not card_image("Kindlewhip")  # a copy to change


def test_the_art_seed_is_fixed_by_the_name() -> None:
    # A hash of the name, not Python's hash(), which changes from run to run.
    digest = hashlib.sha256(b"Kindlewhip").digest()[:8]
    assert seed("Kindlewhip") == int.from_bytes(digest, "big")


def test_every_card_has_art_of_its_own() -> None:
    x0, y0, x1, y1 = ART_BOX
    arts = {card_image(name).crop((x0, y0, x1, y1)).tobytes() for name in SET}
    assert len(arts) == len(SET)


def test_the_edition_sets_the_border_and_others_are_refused() -> None:
    white, black = card_image("Kindlewhip"), card_image("Kindlewhip", edition="limited")
    assert white.getpixel(BORDER_AT)[:3] == EDITION_BORDER["unlimited"]
    assert black.getpixel(BORDER_AT)[:3] == EDITION_BORDER["limited"]
    assert sum(white.getpixel(BORDER_AT)[:3]) > 700 and sum(black.getpixel(BORDER_AT)[:3]) < 60
    assert white.crop(ART_BOX).tobytes() == black.crop(ART_BOX).tobytes()
    assert render_card("Kindlewhip") != render_card("Kindlewhip", edition="limited")
    for bad in ("collectors", "Unlimited", ""):
        with pytest.raises(ValueError, match="edition"):
            card_image("Kindlewhip", edition=bad)
        with pytest.raises(ValueError, match="edition"):
            render_card("Kindlewhip", edition=bad)
    with pytest.raises(KeyError):
        card_image("No Such Card")


@pytest.mark.parametrize("name, kind", [
    ("Kindlewhip", "R"), ("Dawnsilver Aegis", "W"), ("Chroma Sprite", "U"),
    ("Nightspire Baron", "B"), ("Oakhide Mantle", "G"), ("Spectrum Loom", "artifact"),
    ("Stonegear Hulk", "artifact"), ("Murkfen", "land"), ("Saltlight Strand", "land"),
])
def test_the_frame_has_the_cards_colour(name: str, kind: str) -> None:
    assert card_image(name).getpixel(FRAME_AT)[:3] == FRAMES[kind].frame


def test_a_card_of_two_colours_has_a_gold_frame() -> None:
    # The set has none (a card has one colour at a time), so one is made up.
    assert not [c for c in card_set().values() if len(set(c.cost_parts.colours)) > 1]
    gold = CardDef.model_construct(name="Twinlight Warden", cost="1WU", type="creature",
                                   rarity="rare", power=2, toughness=3)
    assert frame_kind(gold.cost_parts.colours, gold.type) == "gold"
    assert draw_face(gold).getpixel(FRAME_AT)[:3] == FRAMES["gold"].frame
    assert len({f.frame for f in FRAMES.values()}) == len(FRAMES)


# --- a hand --------------------------------------------------------------------------------

HAND = ["Kindlewhip", "Spectrum Loom", "Nightspire Baron", "Saltlight Strand",
        "Brasswing Kestrel", "Murkfen", "Oakhide Mantle"]


def test_a_hand_marks_the_castable_cards_and_keeps_every_name_in_view() -> None:
    marked = opened(render_hand(HAND, {"Kindlewhip", "Murkfen"}))
    plain = opened(render_hand(HAND))
    assert marked.size == plain.size and marked.width <= 1.2 * PHONE_WIDTH
    assert count(marked, PLAYABLE) > 500 and count(plain, PLAYABLE) == 0
    assert differs(marked, opened(render_hand(HAND, {"Oakhide Mantle"})))
    assert NAME_BAR[3] <= HAND_DY  # the next card starts below this one's name and cost
    # The last card lies on top, whole: its name is drawn where nothing covers it.
    assert max(marked.size) <= MAX_SIDE
    with drawn_text() as calls:
        draw_hand(HAND, {"Kindlewhip"})
    assert any(call.text.startswith("Your hand: 7 cards") for call in calls)


def test_an_empty_or_huge_hand_still_makes_a_picture() -> None:
    empty = opened(render_hand([]))
    assert empty.width <= PHONE_WIDTH and empty.height < 100
    many = opened(render_hand(SET[:30], set(SET[:30:3])))
    assert max(many.size) <= MAX_SIDE and many.width > many.height / 3


# --- the table -----------------------------------------------------------------------------


def test_the_table_is_the_same_for_every_seat_and_a_spectator() -> None:
    state = two_players()
    spectator = render_battlefield(state.observe(None), NAMES[:2])
    for seat in (0, 1):
        assert render_battlefield(state.observe(seat), NAMES[:2]) == spectator
    image = opened(spectator)
    assert image.width == WIDTH and image.height <= MAX_SIDE


def test_hands_are_never_drawn_on_the_table() -> None:
    state, view = four_players()
    hands = {state.cards[c] for p in state.players for c in p.hand}
    assert "Halcyon Seraph" in hands and "Tombhaunt Lich" in hands
    for seat in (None, 0, 1):
        seen = dataclasses.replace(state.observe(seat), players=view.players)
        with drawn_text() as calls:
            draw_battlefield(seen, NAMES)
        assert not [call.text for call in calls if any(n in call.text for n in
                                                       ("Halcyon", "Tombhaunt"))]


def test_four_players_with_a_stack_an_attack_auras_and_a_player_out() -> None:
    _, view = four_players()
    assert view.stack and view.combat and view.combat["band"] and view.combat["blocks"]
    with drawn_text() as calls:
        image = draw_battlefield(view, NAMES)
    assert image.width == WIDTH and image.height <= MAX_SIDE
    drawn = [call.text for call in calls]
    assert "Stack (top first)" in drawn and "OUT" in drawn and "TURN" in drawn
    assert "TO ACT" in drawn
    # A target after an arrow drawn as a shape: the words on either side drawn apart.
    assert not [t for t in drawn if "->" in t or "→" in t]
    k = next(k for k, t in enumerate(drawn) if t.endswith("Kindlewhip by Ada "))
    assert drawn[k + 1] == " Thornwall Hedge"
    assert any(t.startswith("Kiln-Tempered") for t in drawn)  # an aura on a creature
    assert any(t.startswith("Sunbless") for t in drawn)  # an aura on a land
    assert any(t.startswith("Ashpeak x3") for t in drawn) and "1 tapped" in drawn
    assert "2 dmg" in drawn and "regen 1" in drawn
    assert drawn.count("ATK 1") == 2 and drawn.count("BLK 1") == 2  # the band, its blockers
    line = near(image, (255, 170, 60), 10)
    assert line.getbbox() is not None  # blockers joined to what they block
    calm = dataclasses.replace(view, combat=None, stack=())
    assert differs(image, draw_battlefield(calm, NAMES))
    assert near(draw_battlefield(calm, NAMES), (255, 170, 60), 10).getbbox() is None


def test_a_crowded_table_of_four_grows_wider_and_fits() -> None:
    creatures = [c.name for c in card_set().values() if c.type == "creature"]
    parts = []
    for seat in range(4):
        play = ", ".join(f"{seat * 30 + k + 1} {creatures[(seat * 16 + k) % len(creatures)]}"
                         + (" T" if k % 3 == 0 else "") for k in range(18))
        parts.append(f"p{seat + 1} 20 | lib 5 | hand - | gy - | play {play}")
    view = parse("3 p1 main // " + " // ".join(parts)).observe(None)
    image = opened(render_battlefield(view, NAMES))
    assert max(image.size) <= MAX_SIDE and image.width > WIDTH


def test_a_tapped_permanent_is_turned() -> None:
    entry = {"id": 1, "name": "Magma Ridgeback", "controller": 0, "tapped": False,
             "sick": True, "damage": 2, "attached": None, "shields": 1,
             "type": "creature", "power": 5, "toughness": 4, "keywords": ("trample",)}
    assert _tile(entry, Marks()).size == (TILE_W, TILE_H)
    assert _tile(dict(entry, tapped=True), Marks()).size == (TILE_H, TILE_W)
    assert differs(_tile(entry, Marks()), _tile(dict(entry, damage=0), Marks()))
    assert differs(_tile(entry, Marks()), _tile(entry, Marks(attack=1)))


def test_text_the_font_lacks_does_not_break_a_picture() -> None:
    _, view = four_players()
    with drawn_text() as calls:
        draw_battlefield(view, ODD_NAMES)
        draw_battlefield(two_players().observe(None), ODD_NAMES[:2])
        draw_battlefield(view, [])  # no names: seat numbers
        draw_hand(HAND, set(HAND))
        draw_hand([])
    assert calls and not undrawable(calls)
    assert any("Zoë - AEro" in call.text for call in calls)
    assert all(call.length <= WIDTH for call in calls)


def test_every_text_the_duel_renderer_draws_goes_through_the_helper() -> None:
    pictures = Path(duel_render.__file__).parent
    drawn = [pictures / f"{name}.py" for name in
             ("frames", "card", "hand", "permanents", "battlefield", "collection", "art")]
    assert all(path.exists() for path in drawn)
    assert [call for path in drawn for call in direct_text_calls(path)] == []


def test_the_table_and_a_hand_keep_their_words_inside_in_the_pseudo_locale() -> None:
    """In the pseudo-locale (every word 40 % longer) each text of the table (four players
    with a stack, an attack with a band and blocks, auras, a player out; a crowded table of
    two) and of a hand stays inside its picture and apart from the others."""
    _, view = four_players()
    pseudo.enable()
    try:
        with speaking("qps"), pictures_checked() as placed:
            draw_battlefield(view, NAMES)
            draw_battlefield(two_players().observe(None), NAMES[:2])
            draw_hand(HAND, {"Kindlewhip"})
            draw_hand(HAND[:1])
            draw_hand([])
    finally:
        pseudo.enable(False)
    said = [p.text for p in placed]
    assert any(text.startswith("⟦") for text in said)
    assert not [text for text in said if "library" in text or "Stack" in text]


def test_the_table_and_a_hand_speak_portuguese() -> None:
    """A Portuguese reader's table and hand say their words in Portuguese, the cards by
    their Portuguese names."""
    _, view = four_players()
    with speaking("pt_BR"), drawn_text() as calls:
        draw_battlefield(view, NAMES)
        draw_hand(HAND, {"Kindlewhip"})
    said = " ".join(call.text for call in calls)
    assert "biblioteca" in said and "Pilha (topo primeiro)" in said
    assert "Sua mão: 7 cartas · jogáveis: 1" in said
    assert card_name("Kindlewhip", "pt_BR") in said and "Kindlewhip" not in said
