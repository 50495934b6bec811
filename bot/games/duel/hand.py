"""Arcane Duel's hand: the cards a player holds, as a PNG for their DM.

**A hand** (:func:`render_hand`) is the cards overlapping like a fanned hand held up: each
lies a name bar lower and a little to the right of the one before, so every name and cost
stays readable. Castable cards are framed in green with a tick beside them; the others are
dimmed a little.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.duel.card import CARD_H, CARD_W, NAME_BAR, card_face
from bot.games.duel.frames import BG, DIM, INK, PAD, paste
from bot.i18n import current, tr, trn
from bot.pictures.common import draw_text, fit, font, png, supersampled

# --- sizes ---------------------------------------------------------------------------------

HAND_DX, HAND_DY = 18, 58
"""How far each card of a hand lies right of and below the one before it: the name bar
(with the cost) of every card shows."""
HAND_GUTTER = 40
"""Room at a hand's left for the ticks of castable cards."""
HAND_COLUMN = 12
"""Most cards in one column of a hand (a bigger hand takes more columns)."""
HAND_TITLE = 34

PLAYABLE = (64, 210, 100)
"""The frame and tick of a card that can be cast now."""


# --- a hand --------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _dimmed(name: str, locale: str) -> Image.Image:
    """A card not castable now, its words in ``locale``: its face a little darker (do not
    modify it)."""
    face = card_face(name, "unlimited")
    dark = Image.new("RGBA", face.size, (*BG, 255))
    dimmed = Image.blend(face, dark, 0.35)
    dimmed.putalpha(face.getchannel("A"))
    return dimmed


@lru_cache(maxsize=8)
def _tick(size: int) -> Image.Image:
    """A green disc with a white tick: this card can be cast now."""

    def shape(draw: ImageDraw.ImageDraw, big: int) -> None:
        draw.ellipse((0, 0, big - 1, big - 1), fill=PLAYABLE)
        w = max(2, big // 9)
        draw.line([(big * 0.26, big * 0.52), (big * 0.43, big * 0.7), (big * 0.75, big * 0.32)],
                  fill=(255, 255, 255), width=w, joint="curve")

    return supersampled(size, shape)


def hand_layout(count: int) -> list[tuple[int, int]]:
    """Where each of ``count`` cards of a hand lies (its top-left corner): columns of
    at most :data:`HAND_COLUMN` cards, each card :data:`HAND_DX` right of and
    :data:`HAND_DY` below the one before.

    >>> hand_layout(3)
    [(40, 34), (58, 92), (76, 150)]
    """
    spots = []
    for k in range(count):
        column, row = divmod(k, HAND_COLUMN)
        left = HAND_GUTTER + column * (CARD_W + (HAND_COLUMN - 1) * HAND_DX + HAND_GUTTER)
        spots.append((left + row * HAND_DX, HAND_TITLE + row * HAND_DY))
    return spots


def draw_hand(hand: Sequence[str], playable: Collection[str] = ()) -> Image.Image:
    """The picture :func:`render_hand` sends."""
    if not hand:
        image = Image.new("RGB", (300, 64), BG)
        draw_text(ImageDraw.Draw(image), (150, 32), fit(tr("duel.picture.hand_empty"), font(18),
                                                       280), font(18), DIM, anchor="mm")
        return image
    spots = hand_layout(len(hand))
    width = max(x for x, _ in spots) + CARD_W + PAD
    height = max(y for _, y in spots) + CARD_H + PAD
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    castable = sum(1 for name in hand if name in playable)
    title = trn("duel.picture.hand", len(hand), castable=castable)
    draw_text(draw, (PAD, HAND_TITLE / 2), fit(title, font(18), width - 2 * PAD), font(18), INK,
              anchor="lm")
    for name, (x, y) in zip(hand, spots, strict=True):
        if name in playable:
            draw.rounded_rectangle((x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3), radius=18,
                                   fill=PLAYABLE)
            paste(image, card_face(name, "unlimited"), x, y)
            tick = _tick(26)
            row = (y - HAND_TITLE) // HAND_DY  # the tick goes in the column's gutter
            paste(image, tick, x - row * HAND_DX - HAND_GUTTER + 7,
                   y + (NAME_BAR[1] + NAME_BAR[3] - tick.height) / 2)
        else:
            paste(image, _dimmed(name, current()), x, y)
    return image


def render_hand(hand: Sequence[str], playable: Collection[str] = ()) -> bytes:
    """PNG of a hand for its owner's DM: the cards overlapping so every name and cost
    shows; those named in ``playable`` framed in green with a tick at their left, the
    others dimmed. An empty hand is a small picture saying so."""
    return png(draw_hand(hand, playable))
