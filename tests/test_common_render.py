"""What every renderer shares (bot/pictures/common.py): arrows drawn as shapes, since the
built-in font has no arrow glyph and an ASCII ``->`` reads as a stand-in."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from bot.pictures.common import ascii_text, clean, draw_text, fit, font, length, wrap
from tests.images import drawn_text

INK = (255, 255, 255)


def drawn(words: str, size: int, anchor: str = "la") -> tuple[Image.Image, list[str]]:
    """``words`` drawn white on black at (20, 30) in ``font(size)``: the picture and the
    strings handed to Pillow's text drawing."""
    image = Image.new("RGB", (400, 80), (0, 0, 0))
    with drawn_text() as calls:
        draw_text(ImageDraw.Draw(image), (20, 30), words, font(size), INK, anchor=anchor)
    return image, [call.text for call in calls]


def columns_with_ink(image: Image.Image, threshold: int = 100) -> list[int]:
    """Heights of ink (pixels brighter than ``threshold``) in each column of ``image``."""
    grey = image.convert("L")
    return [sum(1 for y in range(grey.height) if grey.getpixel((x, y)) > threshold)  # type: ignore[operator]
            for x in range(grey.width)]


def test_clean_text_keeps_arrows_for_draw_text() -> None:
    assert clean("a → b ← c") == "a → b ← c"
    assert ascii_text("even → attacker; ≤ 2 ♂") == "even → attacker; <= 2 male"
    assert "->" not in ascii_text("odd → defender")


@pytest.mark.parametrize("size", [12, 15, 16, 20])
def test_an_arrow_is_drawn_as_a_shape_as_long_as_length_says(size: int) -> None:
    image, texts = drawn("odd → defender", size)
    assert "".join(texts) == "odd  defender" and not any("->" in t or "→" in t for t in texts)
    alone, _ = drawn("odd", size)
    after, _ = drawn("defender", size)
    heights = columns_with_ink(image)
    # The arrow lies between the words: ink there, at least half an em long, with a head
    # (taller near its tip than along its shaft).
    start = 20 + round(length("odd ", font(size)))
    arrow_w = length("→", font(size))
    span = heights[start: start + round(arrow_w)]
    inked = [k for k, h in enumerate(span) if h]
    assert inked and inked[-1] - inked[0] >= size / 2
    shaft, head = span[inked[0] + 1], max(span[len(span) // 2:])
    assert head >= shaft + 3
    # The word after the arrow starts where length() says it does.
    right = columns_with_ink(after)
    first_after = next(x for x, h in enumerate(right) if h)
    first_drawn = next(x for x in range(start + round(arrow_w) + 1, image.width)
                       if heights[x])
    assert abs(first_drawn - (first_after + length("odd → ", font(size)))) <= 1
    assert columns_with_ink(alone)[:start] == heights[:start]


def test_an_arrow_sits_on_the_line_of_the_text_around_it() -> None:
    image, _ = drawn("a → b", 20)
    grey = image.convert("L")
    x = 20 + round(length("a ", font(20)) + length("→", font(20)) / 3)
    rows = [y for y in range(grey.height) if grey.getpixel((x, y)) > 100]  # type: ignore[operator]
    letters = [y for y in range(grey.height)
               if any(grey.getpixel((c, y)) > 100 for c in range(20, 30))]  # type: ignore[operator]
    assert rows and letters
    middle = (rows[0] + rows[-1]) / 2
    assert letters[0] < middle < letters[-1]   # within the height of the letter 'a'


@pytest.mark.parametrize("anchor", ["la", "mm", "rm", "ls", "rs"])
def test_anchors_place_text_with_an_arrow_as_they_place_text_without(anchor: str) -> None:
    def box(words: str) -> tuple[int, int, int, int]:
        image = Image.new("RGB", (400, 80), (0, 0, 0))
        draw_text(ImageDraw.Draw(image), (200, 40), words, font(16), INK, anchor=anchor)
        found = image.getbbox()
        assert found is not None
        return found

    def start(words: str) -> float:
        return 200 - {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]] * length(words, font(16))

    arrow, hyphen = box("ab → cd"), box("ab - cd")
    assert abs((arrow[0] - start("ab → cd")) - (hyphen[0] - start("ab - cd"))) <= 1
    assert abs((arrow[2] - start("ab → cd")) - (hyphen[2] - start("ab - cd"))
               - (length("→", font(16)) - length("-", font(16)))) <= 1
    assert arrow[1] == hyphen[1] and arrow[3] == hyphen[3]


def test_fit_and_wrap_measure_arrows_as_they_are_drawn() -> None:
    face = font(16)
    words = "equal totals → tie to the defender → again"
    assert length(words, face) == pytest.approx(
        length("equal totals ", face) + length("→", face) + length(" tie to the defender ", face)
        + length("→", face) + length(" again", face), abs=2)
    assert length("→", face) >= 0.8 * 16
    cut = fit(words, face, 120)
    assert cut.endswith("…") and length(cut, face) <= 120
    for line in wrap(words, face, 110):
        assert length(line, face) <= 110


def test_symbols_the_font_lacks_are_words_of_the_locale_spoken() -> None:
    from bot.i18n import speaking

    with speaking("pt_BR"):
        assert ascii_text("Ana ♀ ≤ ☀🛡️") == "Ana feminino <= solescudo"
    assert ascii_text("Ana ♀ ≤ ☀🛡️") == "Ana female <= sunshield"
