"""Looking at rendered PNGs in tests."""

from __future__ import annotations

import io

from PIL import Image


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
