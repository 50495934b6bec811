"""Looking at rendered PNGs in tests: opening them, counting colours, measuring what is
drawn in a box, and catching every string Pillow is asked to draw."""

from __future__ import annotations

import ast
import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from bot.pictures.common import drawable

Box = tuple[int, int, int, int]
Colour = tuple[int, int, int]


def opened(data: bytes) -> Image.Image:
    """``data`` checked to be a valid PNG, opened as RGB."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    Image.open(io.BytesIO(data)).verify()
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``image`` are exactly ``colour``."""
    return sum(n for n, pixel in image.getcolors(image.width * image.height) or ()
               if pixel == colour)


def ink(image: Image.Image, box: Box, ground: Sequence[Colour], tolerance: int = 90
        ) -> Box | None:
    """The bounding box, inside ``box`` of ``image``, of the pixels that differ from
    every colour of ``ground`` by more than ``tolerance`` (summed over the channels):
    where something is drawn on that ground. ``None`` when nothing is."""
    crop = image.convert("RGB").crop(box)
    mask = Image.new("L", crop.size, 0)
    pixels, marks = crop.load(), mask.load()
    assert pixels is not None and marks is not None
    for y in range(crop.height):
        for x in range(crop.width):
            pixel = pixels[x, y]
            assert isinstance(pixel, tuple)
            if all(sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) > tolerance
                   for colour in ground):
                marks[x, y] = 255
    found = mask.getbbox()
    return None if found is None else (found[0] + box[0], found[1] + box[1],
                                       found[2] + box[0], found[3] + box[1])


@dataclass(frozen=True)
class Drawn:
    """One string Pillow was asked to draw, and how."""

    xy: tuple[float, float]
    text: str
    size: float
    """The font's size, in pixels."""
    length: float
    """How long it is in that font, in pixels."""
    anchor: str | None


@contextmanager
def drawn_text() -> Iterator[list[Drawn]]:
    """Every string drawn with ``ImageDraw.text`` while the block runs, whatever calls
    it, in order."""
    calls: list[Drawn] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        font = kwargs.get("font")
        size = getattr(font, "size", 0)
        length = font.getlength(text) if font is not None else 0.0
        calls.append(Drawn(tuple(xy), str(text), size, length, kwargs.get("anchor")))
        return real(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        ImageDraw.ImageDraw.text = real  # type: ignore[method-assign]


def undrawable(calls: Sequence[Drawn]) -> set[str]:
    """The characters of ``calls`` that the font has no glyph for (drawn as a box)."""
    return {ch for call in calls for ch in call.text if not drawable(ch)}


def direct_text_calls(module: Path) -> list[int]:
    """Lines of ``module`` that call some ``.text(...)`` themselves (Pillow's draw
    method) instead of :func:`bot.pictures.common.draw_text`."""
    tree = ast.parse(module.read_text())
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "text"]


def near(image: Image.Image, colour: Colour, tolerance: int = 0) -> Image.Image:
    """A mask of ``image``: white where every channel is within ``tolerance`` of
    ``colour``, black elsewhere."""
    rgb = image.convert("RGB")
    red, green, blue = ImageChops.difference(rgb, Image.new("RGB", rgb.size, colour)).split()
    furthest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return furthest.point(lambda v: 255 if v <= tolerance else 0)


def luminance(colour: Colour) -> float:
    """The relative luminance of ``colour`` (WCAG 2): 0 for black, 1 for white."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(c) for c in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(a: Colour, b: Colour) -> float:
    """The contrast ratio of two colours (WCAG 2): 1 for the same, 21 for black on white;
    3 is the least for a mark meant to be seen."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def pixels_contrasting(image: Image.Image, box: Box, ground: Colour, ratio: float = 3.0
                       ) -> int:
    """How many pixels in ``box`` of ``image`` stand out from ``ground`` by at least
    ``ratio`` (see :func:`contrast`)."""
    crop = image.convert("RGB").crop(box)
    return sum(n for n, pixel in crop.getcolors(crop.width * crop.height) or ()
               if contrast(pixel, ground) >= ratio)
