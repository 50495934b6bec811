"""Hammer & Nails' pictures: the build stack, single tiles and a hand."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PIL import Image, ImageChops

import bot.games.nails.pictures as nails_render
from bot.games.nails.pictures import (
    GOLD,
    MAX_SIDE,
    MIN_WIDTH,
    RESULT,
    TABLE,
    ZONE,
    _seat_text,
    _status,
    render_hand,
    render_stack,
    render_tile,
)
from bot.i18n import pseudo, speaking
from rules.nails import DECKS, NailsState, NailsView, Placement, parse_deck
from rules.nails import GAME as NAILS
from rules.nails.tiles import Tile
from tests.images import (
    Box,
    count,
    direct_text_calls,
    drawn_text,
    near,
    opened,
    undrawable,
)
from tests.pseudo import pictures_checked

NAMES = ["Ada", "Bo", "Cy", "Di"]


def played(deck: str, seats: int, moves: int, seed: int = 1) -> NailsState:
    """A game of ``deck`` after ``moves`` choices, each the first option offered."""
    state = NAILS.new({"deck": deck}, seats, seed=seed)
    for _ in range(moves):
        if state.over:
            break
        decision = state.pending()[0]
        state.apply(decision.seat, decision.options[0])
    return state


def dominant(image: Image.Image) -> tuple[int, int, int]:
    """The commonest colour of a picture."""
    colours = image.convert("RGB").getcolors(image.width * image.height) or []
    return max(colours)[1]


def test_stack_pictures_of_both_decks_open_and_fit() -> None:
    for deck, seats in (("workshop", 2), ("space", 4), ("workshop4", 4)):
        state = played(deck, seats, 8)
        view = state.observe(None)
        assert len(view.layers) > 1
        image = opened(render_stack(view, NAMES[:seats]))
        assert MIN_WIDTH <= image.width <= MAX_SIDE and image.height <= MAX_SIDE


def test_red_and_green_nails_look_red_and_green() -> None:
    deck = parse_deck("t", "square", "1 R R R R\n2 G G G G")
    red, green = (dominant(render_tile(deck.tile(n))) for n in (1, 2))
    assert red[0] > red[1] + 30 and red[0] > red[2] + 30
    assert green[1] > green[0] + 30 and green[1] > green[2] + 30
    assert sum(abs(a - b) for a, b in zip(red, green, strict=True)) > 100
    ships = parse_deck("s", "octagon", "1 blank | R R R R\n2 cow | B B B B")
    red_ship, blue_ship = (dominant(render_tile(ships.tile(n))) for n in (1, 2))
    assert red_ship[0] > red_ship[2] + 30 and blue_ship[2] > blue_ship[0] + 30


def test_turning_a_tile_moves_its_zones_clockwise() -> None:
    (tile,) = parse_deck("t", "square", "3 R H _ G:remove").tiles
    pictures = {turn: render_tile(tile, rotation=turn) for turn in (0, 90, 180, 270)}
    assert len({p.tobytes() for p in pictures.values()}) == 4
    rim = max(2, round(ZONE * 0.08))

    def zone(picture: Image.Image, dx: int, dy: int) -> bytes:
        # The middle of a zone, clear of the number in the corner.
        x, y = rim + dx * ZONE, rim + dy * ZONE
        return picture.crop((x + 16, y + 16, x + ZONE - 16, y + ZONE - 16)).tobytes()

    # Turned a quarter, the bottom-left zone (G) comes to the top-left.
    assert zone(pictures[90], 0, 0) == zone(pictures[0], 0, 1)
    assert zone(pictures[90], 1, 0) == zone(pictures[0], 0, 0)
    assert zone(pictures[180], 0, 0) == zone(pictures[0], 1, 1)
    try:
        render_tile(tile, rotation=45)
    except ValueError:
        pass
    else:
        raise AssertionError("a tile turns by quarters only")


def test_octagonal_tiles_render() -> None:
    for tile in DECKS["space"].tiles[:6]:
        picture = render_tile(tile, rotation=90, scale=0.8)
        assert picture.mode == "RGBA" and picture.width == picture.height
        assert picture.getpixel((picture.width - 1, picture.height - 1))[3] == 0  # cut corner
        assert picture.getpixel((picture.width // 2, picture.height // 2))[3] == 255
    big = render_tile(DECKS["space"].tile(3), scale=2)
    assert big.width > render_tile(DECKS["space"].tile(3)).width


def test_the_last_placement_is_framed_in_gold() -> None:
    for deck, seats in (("workshop", 2), ("space", 4)):
        view = played(deck, seats, 5).observe(None)
        assert view.last is not None
        assert count(opened(render_stack(view, NAMES)), GOLD) > 0
        unmarked = dataclasses.replace(view, last=None)
        assert count(opened(render_stack(unmarked, NAMES)), GOLD) == 0
    start = NAILS.new({}, 2, seed=1).observe(None)
    assert start.last is None and count(opened(render_stack(start, NAMES)), GOLD) == 0


def test_a_finished_game_renders_with_its_result() -> None:
    for deck, seats in (("workshop", 2), ("space", 4)):
        state = played(deck, seats, 2000, seed=3)
        view = state.observe(None)
        assert view.outcome is not None
        image = opened(render_stack(view, NAMES))
        assert image.width <= MAX_SIDE and image.height <= MAX_SIDE
        assert count(image, RESULT) > 0
    running = opened(render_stack(played("workshop", 2, 4).observe(None), NAMES))
    assert count(running, RESULT) == 0


def test_a_huge_stack_and_odd_names_still_fit() -> None:
    view = played("workshop", 2, 6).observe(None)
    tile, _ = view.layers[-1]
    far = dataclasses.replace(view, layers=(*view.layers, (tile, Placement(tile.number, 500,
                                                                           300))))
    image = opened(render_stack(far, ["Ada Lovelace, Countess of Lovelace 🎲" * 3, "Bo – 博"]))
    assert image.width <= MAX_SIDE and image.height <= MAX_SIDE
    opened(render_stack(view, []))  # no names: "Player 1", "Player 2"


def test_hands_render() -> None:
    empty = opened(render_hand([]))
    assert empty.width < 400 and empty.height < 100
    state = played("workshop", 2, 3)
    hand = state.observe(0).hand
    assert hand
    four = opened(render_hand(hand))
    one = opened(render_hand(hand[:1]))
    assert four.width > one.width and four.width <= MAX_SIDE
    space = opened(render_hand(DECKS["space"].tiles[:8]))
    assert space.height > four.height  # two rows


def test_the_header_says_who_must_cover_what() -> None:
    view = played("workshop", 2, 4).observe(None)
    covering = dataclasses.replace(view, obligation=("green", 1 - view.turn), phase="cover")
    names = ["Ada", "Bo"]
    assert f"{names[view.turn]} must cover a green nail" in " ".join(_status(covering, names))
    later = dataclasses.replace(view, obligation=("red", view.turn), phase="place")
    assert "the next player must cover a red nail" in " ".join(_status(later, names))
    penalised = dataclasses.replace(view, penalties=(2, 0), showing=(7, 3))
    assert _seat_text(penalised, names, 0).startswith("Ada (red): 7 showing (incl. 2 penalty)")


# --- an octagonal tile is the same octagon in a hand and on the stack ---------------------


def alone_on_the_stack(tile: Tile, rotation: int = 0) -> tuple[Image.Image, Box]:
    """The stack picture with ``tile`` alone on it, and the box of its 3×3 cells (found
    by its gold frame: it is the last placement)."""
    view = NailsState.position([[1, 2], [4, 5]], stack=(f"{tile.number}@A1/{rotation}",),
                               deck=DECKS["space"]).observe(None)
    view = dataclasses.replace(view, last=view.layers[0][1])
    image = opened(render_stack(view, NAMES[:2]))
    box = near(image, GOLD).getbbox()
    assert box is not None
    return image, box


def octagon_mask(tile: Tile, where: str) -> Image.Image:
    """Where the tile is (white) and is not (black) in its box, ``hand`` or ``stack``,
    scaled to 60×60 pixels."""
    if where == "hand":
        picture = render_tile(tile)
        mask = picture.getchannel("A").point(lambda a: 255 if a > 128 else 0)
    else:
        image, box = alone_on_the_stack(tile)
        _, table, grid = TABLE["octagon"]
        crop = image.crop(box)
        mask = ImageChops.invert(ImageChops.lighter(near(crop, table, 10), near(crop, grid)))
    return mask.resize((60, 60), Image.Resampling.BILINEAR).point(
        lambda v: 255 if v > 128 else 0)


def test_an_octagonal_tile_has_its_corners_cut_in_a_hand_and_on_the_stack() -> None:
    tile = DECKS["space"].tile(3)
    hand = octagon_mask(tile, "hand")
    stack = octagon_mask(tile, "stack")

    def at(mask: Image.Image, corner: tuple[int, int], u: float, v: float) -> int:
        """The mask at (u, v) of the box, measured from ``corner`` (1: right or bottom)."""
        x = 60 * (u if corner[0] else 1 - u)
        y = 60 * (v if corner[1] else 1 - v)
        return int(mask.getpixel((min(59, int(x)), min(59, int(y)))) or 0)

    for mask in (hand, stack):
        # Each corner square (a third of the box) is cut corner to corner: its outer
        # half is table, its inner half is tile. (The top-left one holds the number
        # plate in a hand, so the other three are checked.)
        for corner in ((1, 0), (1, 1), (0, 1)):
            assert at(mask, corner, 0.97, 0.97) == at(mask, corner, 0.9, 0.9) == 0
            assert at(mask, corner, 0.76, 0.76) == at(mask, corner, 0.8, 0.72) == 255
        assert mask.getpixel((30, 30)) == 255 and mask.getpixel((30, 2)) == 255


def test_an_octagonal_tile_is_the_same_shape_in_a_hand_and_on_the_stack() -> None:
    for number in (3, 17, 40):
        tile = DECKS["space"].tile(number)
        hand, stack = octagon_mask(tile, "hand"), octagon_mask(tile, "stack")
        differ = sum(1 for x in range(20, 60) for y in range(60)   # the plate's corner aside
                     if hand.getpixel((x, y)) != stack.getpixel((x, y)))
        differ += sum(1 for x in range(20) for y in range(20, 60)
                      if hand.getpixel((x, y)) != stack.getpixel((x, y)))
        assert differ <= 0.02 * (60 * 60 - 20 * 20)


def test_a_turned_octagon_shows_its_zones_turned_on_the_stack() -> None:
    tile = DECKS["space"].tiles[5]
    pictures = {turn: alone_on_the_stack(tile, turn) for turn in (0, 90)}
    crops = {turn: image.crop(box) for turn, (image, box) in pictures.items()}
    third = crops[0].width // 3

    def zone(picture: Image.Image, dx: int, dy: int) -> bytes:
        x, y = dx * third, dy * third
        return picture.crop((x + 12, y + 12, x + third - 12, y + third - 12)).tobytes()

    # Turned a quarter, the left zone comes to the top.
    assert zone(crops[90], 1, 0) == zone(crops[0], 0, 1)


# --- text ------------------------------------------------------------------------------------


def test_no_nails_picture_draws_a_glyph_the_font_lacks() -> None:
    names = ["{boss} — 🎲", "José 博", "x" * 100, "Zoë"]
    with drawn_text() as calls:
        for deck, seats in (("workshop", 2), ("space", 4)):
            state = played(deck, seats, 30)
            render_stack(state.observe(None), names[:seats])
            render_hand(state.observe(0).hand or ())
        render_hand([])
    assert calls and not undrawable(calls)
    assert any("José" in call.text for call in calls)   # accents drawn (issue 33)


def test_every_text_the_nails_renderer_draws_goes_through_the_helper() -> None:
    assert direct_text_calls(Path(nails_render.__file__)) == []


# --- languages -------------------------------------------------------------------------------


def _every_kind_of_view() -> list[tuple[NailsView, list[str]]]:
    """Views of every deck and table size, a crowded four-colour table with long names, an
    obligation, penalties, a player out, a finished game and a tie-break."""
    long_names = ["Ada Lovelace, Countess", "Bo Bo Bo Bo Bo Bo Bo", "Cy Young the Third",
                  "Di of the Long Name"]
    views: list[tuple[NailsView, list[str]]] = []
    for deck, seats, moves in (("workshop", 2, 6), ("space", 2, 12), ("workshop", 4, 40),
                               ("workshop4", 4, 60), ("workshop4", 3, 20)):
        state = NAILS.new({"deck": deck}, seats, seed=2)
        for _ in range(moves):
            if state.over:
                break
            decision = state.pending()[0]
            state.apply(decision.seat, decision.options[0])
        view = state.observe(None)
        views.append((view, NAMES[:seats]))
        views.append((dataclasses.replace(view, obligation=("green", 1), phase="cover",
                                          penalties=(2,) * seats, went_out=(0,),
                                          final_round=True, waiting=tuple(range(seats))),
                      long_names[:seats]))
    finished = played("workshop", 2, 5000)
    views.append((finished.observe(None), NAMES[:2]))
    space = played("space", 2, 5000, seed=3)
    views.append((space.observe(None), long_names[:2]))
    return views


def test_pictures_in_the_pseudo_locale_keep_their_text_inside_and_apart() -> None:
    pseudo.enable()
    try:
        with speaking("qps"), pictures_checked() as placed:
            for view, names in _every_kind_of_view():
                render_stack(view, names)
            render_hand(played("workshop", 2, 3).observe(0).hand or ())
            render_hand(DECKS["space"].tiles[:8])
            render_hand(DECKS["workshop"].tiles[:6])
            render_hand([])
    finally:
        pseudo.enable(False)
    # Every text drawn is a catalog's (bracketed), or notation, a name or a number.
    assert any(p.text.startswith("⟦") for p in placed)


def test_the_pictures_speak_portuguese() -> None:
    view = played("workshop", 2, 6).observe(None)
    covering = dataclasses.replace(view, obligation=("green", 1), phase="cover")
    with drawn_text() as calls, speaking("pt-BR"):
        render_stack(covering, ["Ada", "Bo"])
        render_hand(DECKS["workshop"].tiles[:4])
    said = " ".join(call.text for call in calls)
    assert "tem que cobrir um prego verde" in said and "vence quem tiver menos pregos" in said
    assert "Sua mão: 4 peças" in said and "peça 3" in said and "must cover" not in said
    with speaking("pt-BR"):
        assert _seat_text(dataclasses.replace(view, penalties=(2, 0), showing=(7, 3)),
                          ["Ada", "Bo"], 0) == ("Ada (vermelho): 7 à mostra (com 2 de "
                                                "penalidade) · 4 na mão")
    ships = dataclasses.replace(played("space", 2, 6).observe(None),
                                obligation=("blue", 0), phase="place")
    with speaking("pt-BR"):
        assert "o próximo jogador tem que cobrir uma nave azul" in " ".join(
            _status(ships, ["Ada", "Bo"]))
