"""Arcane Duel's card art, generated from the card's data: what it shows follows the
card's type, and where things lie comes from a generator seeded from a hash of the
card's name, so a card always has the same picture and no two cards share one.

What the art shows (:func:`motif`): a land, the landscape of its basic type (standing
stones for a special land); an instant or interrupt, a bolt; a sorcery, a spiral; an
enchantment, rings; an artifact, cogs; an artifact creature, a construct; any other
creature, its subject (:func:`subject`): a person, a beast, a bird, a serpent, a
spirit, a wall or a plant, from :data:`SUBJECTS` (the card set has no creature types,
so the art's table says what each creature is; a creature it does not know gets one
from its data: a wall for power 0 that holds the line, a bird for a flyer, else a
beast). A creature that flies, and only one, has wings. So a hedge that only blocks is a
thorny hedge, not a horned beast with four legs.

Everything is painted :data:`ART_SS` times bigger, then halved, in the card's colours
(:func:`palette`).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.common import Colour
from rules.duel.cards import CardDef

ART_PALETTES: dict[str, tuple[Colour, ...]] = {
    "W": ((250, 244, 214), (236, 210, 140), (196, 168, 100), (255, 255, 250),
          (168, 190, 214)),
    "U": ((26, 54, 112), (66, 128, 200), (150, 200, 236), (16, 26, 64), (220, 240, 255)),
    "B": ((20, 16, 26), (70, 50, 82), (124, 92, 124), (146, 24, 44), (200, 190, 204)),
    "R": ((62, 18, 12), (200, 62, 30), (250, 150, 62), (255, 222, 124), (122, 32, 22)),
    "G": ((20, 58, 30), (60, 140, 62), (162, 202, 92), (232, 222, 124), (92, 70, 40)),
    "artifact": ((58, 60, 68), (140, 144, 154), (202, 170, 112), (232, 232, 238),
                 (112, 80, 52)),
    "land": ((92, 70, 46), (166, 132, 92), (214, 190, 150), (70, 96, 60), (232, 220, 196)),
}
"""The colours art is painted in, by colour (lands and gold cards mix these)."""

ART_SS = 2
"""Art is painted this much bigger, then halved: smooth edges at little cost."""

LANDSCAPES = ("plains", "island", "swamp", "mountain", "forest", "land")
"""What a land's art shows: its basic type's landscape, or standing stones."""
CREATURES = ("person", "beast", "bird", "serpent", "spirit", "wall", "plant", "construct")
"""What a creature's art can show."""

SUBJECTS: dict[str, str] = {
    # people
    "Cinderpit Sapper": "person", "Chroma Sprite": "person", "Cragborn Raider": "person",
    "Emberward Knight": "person", "Flintspark Adept": "person", "Gilded Lancer": "person",
    "Glimmer Scholar": "person", "Gravemarch Knight": "person",
    "Grovechant Mystic": "person", "Halcyon Seraph": "person", "Harbor Smuggler": "person",
    "Hushing Chaplain": "person", "Lantern Acolyte": "person", "Nightspire Baron": "person",
    "Radiant Exarch": "person", "Ridgeline Lancers": "person", "Roadside Pilgrim": "person",
    "Rootweave Tender": "person", "Shieldbearer Phalanx": "person",
    "Slagfoot Brute": "person", "Sunmantle Paladin": "person", "Thornlash Archer": "person",
    "Tidebane Marauder": "person", "Tidecaller Adept": "person", "Tidewatch Oracle": "person",
    "Torchbearer Militia": "person", "Trailwise Forager": "person",
    "Undertow Mystic": "person", "Vigil Squire": "person", "Watchtower Archer": "person",
    "Whispering Crone": "person",
    # beasts
    "Bellows Salamander": "beast", "Blightmaw Horror": "beast", "Burrtusk Boar": "beast",
    "Cloudmane Colt": "beast", "Duskwing Bat": "beast", "Elderloam Behemoth": "beast",
    "Fernshade Prowler": "beast", "Kelpshell Crawler": "beast", "Magma Ridgeback": "beast",
    "Marshstep Lizard": "beast", "Mosshorn Charger": "beast", "Palebark Stag": "beast",
    "Scorchback Runner": "beast", "Scorchgrove Stalker": "beast",
    "Sodden Rootbeast": "beast",
    # birds
    "Brinewing Skimmer": "bird", "Skyglass Heron": "bird", "Stormcrag Harrier": "bird",
    "Stormcrest Roc": "bird",
    # serpents (a flying one is a wyrm)
    "Deepcoil Serpent": "serpent", "Kessa Pyrewyrm": "serpent", "Mirebound Lurker": "serpent",
    # spirits and the dead
    "Bloodbound Fiend": "spirit", "Fenrot Ghoul": "spirit", "Howling Sootfiend": "spirit",
    "Marrow Shade": "spirit", "Mistveil Phantom": "spirit", "Peatbog Revenant": "spirit",
    "Rattlebone Thrall": "spirit", "Tombhaunt Lich": "spirit",
    # what holds the line
    "Bastion Sentry": "wall", "Thornwall Hedge": "plant", "Burlheart Ancient": "plant",
}
"""What each creature of the set is (artifact creatures are constructs by their type):
the creature types the card data does not have, kept with the art they choose."""


@dataclass(frozen=True, slots=True)
class Motif:
    """What a card's art shows."""

    kind: str
    """One of :data:`LANDSCAPES`, :data:`CREATURES`, ``artifact``, ``bolt``, ``spiral``
    or ``rings``."""
    wings: bool = False
    """Whether a creature is drawn with wings (it flies)."""


def subject(data: CardDef) -> str:
    """What creature ``data`` is drawn as: a construct for an artifact creature, else its
    entry in :data:`SUBJECTS`, else what its data suggests (a wall for power 0 and
    toughness 3 or more on the ground, a bird for a flyer, a beast otherwise).

    >>> from rules.duel.cards import card
    >>> subject(card("Thornwall Hedge")), subject(card("Stonegear Hulk"))
    ('plant', 'construct')
    """
    if data.type == "artifact creature":
        return "construct"
    if data.name in SUBJECTS:
        return SUBJECTS[data.name]
    flies = "flying" in data.keywords
    if data.power == 0 and (data.toughness or 0) >= 3 and not flies:
        return "wall"
    return "bird" if flies else "beast"


def motif(data: CardDef) -> Motif:
    """What card ``data``'s art shows, by its type (see the module's notes).

    >>> from rules.duel.cards import card
    >>> motif(card("Murkfen")), motif(card("Stormcrest Roc"))
    (Motif(kind='swamp', wings=False), Motif(kind='bird', wings=True))
    """
    if data.type == "land":
        return Motif(data.basic or "land")
    if data.is_creature:
        return Motif(subject(data), "flying" in data.keywords)
    if data.artifact:
        return Motif("artifact")
    if data.type in {"instant", "interrupt"}:
        return Motif("bolt")
    if data.type == "sorcery":
        return Motif("spiral")
    return Motif("rings")


def palette(data: CardDef, kind: str) -> tuple[Colour, ...]:
    """The art's colours for card ``data`` in frame ``kind`` (a colour letter, ``gold``,
    ``land`` or ``artifact``): the card's colour, a land's mana colours over earth, all
    the colours of a gold card, steel and brass for an artifact."""
    if kind in ART_PALETTES and kind != "land":
        return ART_PALETTES[kind]
    colours = data.produces if kind == "land" else data.cost_parts.colours
    mixed = [ART_PALETTES[c][k] for k in (1, 2) for c in colours]
    base = ART_PALETTES["land"] if kind == "land" else ART_PALETTES["artifact"]
    return (*base[:3], *mixed) if mixed else base


def seed(name: str) -> int:
    """A number fixed by the card's name (not Python's ``hash``, which changes per run)."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big")


def shade(colour: Colour, by: float) -> Colour:
    """``colour`` lightened (``by`` > 0) or darkened (``by`` < 0) toward white or black."""
    target = 255 if by > 0 else 0
    return tuple(round(c + (target - c) * abs(by)) for c in colour)  # type: ignore[return-value]


def rgba(colour: Colour, alpha: int) -> tuple[int, int, int, int]:
    """``colour`` with an alpha."""
    return (*colour, alpha)


def _disc(draw: ImageDraw.ImageDraw, x: float, y: float, r: float,
          fill: tuple[int, int, int, int]) -> None:
    """A filled circle of radius ``r`` centred on (``x``, ``y``)."""
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _wings(draw: ImageDraw.ImageDraw, cx: float, cy: float, span: float, rise: float,
           colour: Colour, alpha: int) -> None:
    """A pair of raised wings rooted at (``cx``, ``cy``): ``span`` out to each tip,
    ``rise`` above the root, their trailing edges scalloped like feathers."""
    for side in (-1, 1):
        tip = (cx + side * span, cy - rise)
        edge = [(cx + side * span * f, cy - rise * (0.55 - 0.5 * f) + rise * 0.12 * (k % 2))
                for k, f in enumerate((0.95, 0.8, 0.65, 0.5, 0.35, 0.2))]
        draw.polygon([(cx, cy - rise * 0.15), tip, *edge, (cx, cy + rise * 0.1)],
                     fill=rgba(colour, alpha))


def _eyes(draw: ImageDraw.ImageDraw, x: float, y: float, apart: float, r: float,
          colour: Colour) -> None:
    """Two glowing eyes centred on (``x``, ``y``)."""
    for dx in (-apart / 2, apart / 2):
        _disc(draw, x + dx, y, r, rgba(colour, 255))


@lru_cache(maxsize=64)
def card_art(name: str, colours: tuple[Colour, ...], shows: Motif, w: int, h: int
             ) -> Image.Image:
    """The art of card ``name``: ``w`` × ``h`` RGB, painted in ``colours`` showing
    ``shows``, by a generator seeded from the name, so the same card always gets the
    same picture (do not modify it)."""
    rng = random.Random(seed(name))
    bw, bh = w * ART_SS, h * ART_SS
    top, bottom = rng.sample(colours[:3], 2)
    image = Image.composite(Image.new("RGB", (bw, bh), bottom), Image.new("RGB", (bw, bh), top),
                            _gradient(bw, bh))
    draw = ImageDraw.Draw(image, "RGBA")
    _sky(draw, rng, colours, bw, bh)
    _hills(draw, rng, colours, bw, bh, layers=3 if shows.kind in LANDSCAPES else 2)
    if shows.kind in _CREATURES:
        _CREATURES[shows.kind](draw, rng, colours, bw, bh, shows.wings)
    else:
        _SCENES[shows.kind](draw, rng, colours, bw, bh)
    for _ in range(rng.randint(6, 16)):  # sparkles
        x, y, r = rng.uniform(0, bw), rng.uniform(0, bh * 0.7), rng.uniform(1.5, 5) * ART_SS
        _disc(draw, x, y, r, rgba(rng.choice(colours), 150))
    return image.reduce(ART_SS)


@lru_cache(maxsize=8)
def _gradient(w: int, h: int) -> Image.Image:
    """A top-to-bottom ramp ``w`` × ``h``, black to white: the sky's mask (do not modify
    it; the same for every card, so drawn once)."""
    return Image.linear_gradient("L").resize((w, h))


def _sky(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
         w: int, h: int) -> None:
    """A sun or moon with a soft halo."""
    cx, cy, r = rng.uniform(0.15, 0.85) * w, rng.uniform(0.12, 0.4) * h, rng.uniform(0.08, 0.16) * h
    glow = shade(rng.choice(palette), 0.5)
    for k in range(4, 0, -1):
        halo = r * (1 + 0.35 * k)
        _disc(draw, cx, cy, halo, rgba(glow, 28))
    _disc(draw, cx, cy, r, rgba(shade(glow, 0.4), 230))


def _hills(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int, layers: int) -> None:
    """Rolling ridges, the farther ones lighter."""
    for layer in range(layers):
        base = h * (0.55 + 0.14 * layer)
        steps = rng.randint(4, 8)
        points = [(0.0, float(h))]
        for k in range(steps + 1):
            points.append((w * k / steps, base - rng.uniform(0, 0.18) * h))
        points.append((float(w), float(h)))
        colour = shade(rng.choice(palette), -0.25 - 0.15 * layer)
        draw.polygon(points, fill=rgba(colour, 170 + 30 * layer))


def _beast(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int, wings: bool = False) -> None:
    """A beast's silhouette: body, head, legs, horns, glowing eyes (wings if it flies)."""
    body = shade(rng.choice(palette), -0.55)
    cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.58, 0.68) * h
    rx, ry = rng.uniform(0.14, 0.24) * w, rng.uniform(0.12, 0.2) * h
    if wings:
        span = rx * rng.uniform(1.6, 2.4)
        for side in (-1, 1):
            draw.polygon([(cx, cy - ry * 0.3), (cx + side * span, cy - ry * 2.2),
                          (cx + side * span * 0.7, cy + ry * 0.2)], fill=rgba(body, 210))
    for k in range(rng.randint(2, 4)):  # legs
        x = cx - rx * 0.7 + k * rx * 0.5
        draw.rectangle((x, cy, x + rx * 0.18, cy + ry * 1.5), fill=rgba(body, 255))
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=rgba(body, 255))
    side = rng.choice((-1, 1))
    hx, hy, hr = cx + side * rx * 0.95, cy - ry * 0.9, ry * rng.uniform(0.55, 0.8)
    _disc(draw, hx, hy, hr, rgba(body, 255))
    for horn in (-1, 1):
        draw.polygon([(hx + horn * hr * 0.5, hy - hr * 0.6), (hx + horn * hr * 0.9, hy - hr * 1.9),
                      (hx + horn * hr * 0.1, hy - hr * 0.8)], fill=rgba(body, 255))
    _eyes(draw, hx, hy - hr * 0.1, hr * 0.7, max(2.0, hr * 0.16),
          shade(rng.choice(palette), 0.6))


def _construct(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
               w: int, h: int, wings: bool = False) -> None:
    """A cog with a face on legs (with wings of riveted plates if it flies)."""
    metal = shade(rng.choice(palette), -0.35)
    cx, cy, r = rng.uniform(0.35, 0.65) * w, 0.55 * h, rng.uniform(0.18, 0.26) * h
    if wings:
        _wings(draw, cx, cy - r * 0.3, r * 2.1, r * 1.6, shade(metal, -0.2), 235)
    for side in (-1, 1):
        draw.rectangle((cx + side * r * 0.5 - r * 0.12, cy, cx + side * r * 0.5 + r * 0.12,
                        cy + r * 1.8), fill=rgba(shade(metal, -0.3), 255))
    draw.polygon(_cog(cx, cy, r, rng.randint(7, 12)), fill=rgba(metal, 255))
    eye = shade(rng.choice(palette), 0.7)
    for dx in (-0.3, 0.3):
        draw.ellipse((cx + dx * r - r * 0.12, cy - r * 0.2, cx + dx * r + r * 0.12, cy + r * 0.04),
                     fill=rgba(eye, 255))


def _cog(cx: float, cy: float, r: float, teeth: int) -> list[tuple[float, float]]:
    points = []
    step = 2 * math.pi / teeth
    for k in range(teeth):
        for radius, da in ((0.75, -0.32), (1.0, -0.18), (1.0, 0.18), (0.75, 0.32)):
            a = k * step + da * step
            points.append((cx + radius * r * math.cos(a), cy + radius * r * math.sin(a)))
    return points


def _artifact(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
              w: int, h: int) -> None:
    """One or two cogs with a gem at the hub."""
    for _ in range(rng.randint(1, 2)):
        cx, cy, r = rng.uniform(0.25, 0.75) * w, rng.uniform(0.4, 0.65) * h, \
            rng.uniform(0.16, 0.3) * h
        draw.polygon(_cog(cx, cy, r, rng.randint(6, 12)),
                     fill=rgba(shade(rng.choice(palette), -0.3), 240))
        hub = r * 0.35
        _disc(draw, cx, cy, hub, rgba(shade(rng.choice(palette), 0.4), 255))


def _bolt(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
          w: int, h: int) -> None:
    """Rays from a burst and a zigzag bolt through it."""
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.35, 0.6) * h
    light = shade(rng.choice(palette), 0.55)
    for _ in range(rng.randint(7, 13)):
        a, reach = rng.uniform(0, 2 * math.pi), rng.uniform(0.3, 0.7) * h
        draw.line((cx, cy, cx + reach * math.cos(a), cy + reach * math.sin(a)),
                  fill=rgba(light, 140), width=max(2, round(h * 0.015)))
    x, y = cx + rng.uniform(-0.1, 0.1) * w, 0.0
    points = [(x, y)]
    while y < h:
        y += rng.uniform(0.1, 0.22) * h
        x += rng.uniform(-0.12, 0.12) * w
        points.append((x, y))
    draw.line(points, fill=rgba(shade(light, 0.5), 255), width=max(3, round(h * 0.035)))


def _spiral(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
            w: int, h: int) -> None:
    """Dots swirling in to a centre."""
    cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.4, 0.6) * h
    turn = rng.choice((-1, 1))
    colour = shade(rng.choice(palette), 0.3)
    for k in range(40):
        a = turn * k * 0.45
        r = (1 - k / 40) * 0.42 * h
        dot = (1.5 + 6 * (1 - k / 40)) * ART_SS
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        _disc(draw, x, y, dot, rgba(colour, 220))


def _rings(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int) -> None:
    """Concentric rings with runes on them: a spell that stays."""
    cx, cy = rng.uniform(0.35, 0.65) * w, rng.uniform(0.42, 0.58) * h
    colour = shade(rng.choice(palette), 0.45)
    for k in range(rng.randint(2, 4)):
        r = (0.14 + 0.1 * k) * h
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=rgba(colour, 220),
                     width=max(2, round(h * 0.012)))
        for _ in range(rng.randint(3, 6)):
            a = rng.uniform(0, 2 * math.pi)
            x, y, s = cx + r * math.cos(a), cy + r * math.sin(a), h * 0.025
            draw.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)],
                         fill=rgba(colour, 255))


def _peaks(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int) -> None:
    """Mountains with snowy tops."""
    for _ in range(rng.randint(2, 4)):
        x, top, half = rng.uniform(0, w), rng.uniform(0.15, 0.45) * h, rng.uniform(0.15, 0.3) * w
        rock = shade(rng.choice(palette), -0.4)
        draw.polygon([(x - half, h), (x, top), (x + half, h)], fill=rgba(rock, 255))
        snow = (h - top) * 0.18
        draw.polygon([(x - half * snow / (h - top), top + snow), (x, top),
                      (x + half * snow / (h - top), top + snow)], fill=(246, 246, 250, 255))


def _waves(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int) -> None:
    """Rows of waves."""
    for row in range(5):
        y = h * (0.55 + 0.09 * row)
        colour = shade(rng.choice(palette), 0.2 - 0.1 * row)
        points = [(float(x), y + math.sin(x / w * 6 * math.pi + row) * h * 0.025)
                  for x in range(0, w + 8, 8)]
        draw.polygon([(0.0, float(h)), *points, (float(w), float(h))], fill=rgba(colour, 200))


def _trees(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int) -> None:
    """A stand of pointed trees."""
    for _ in range(rng.randint(5, 9)):
        x, base, size = rng.uniform(0, w), rng.uniform(0.7, 0.95) * h, rng.uniform(0.2, 0.4) * h
        leaf = shade(rng.choice(palette), -0.45)
        draw.rectangle((x - size * 0.05, base - size * 0.2, x + size * 0.05, base),
                       fill=(70, 48, 30, 255))
        draw.polygon([(x - size * 0.3, base - size * 0.2), (x, base - size),
                      (x + size * 0.3, base - size * 0.2)], fill=rgba(leaf, 255))


def _pools(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int) -> None:
    """Dark pools and dead stumps."""
    for _ in range(rng.randint(3, 6)):
        x, y, rx = rng.uniform(0, w), rng.uniform(0.7, 0.95) * h, rng.uniform(0.06, 0.16) * w
        draw.ellipse((x - rx, y - rx * 0.25, x + rx, y + rx * 0.25),
                     fill=rgba(shade(rng.choice(palette), -0.6), 230))
    for _ in range(rng.randint(1, 3)):
        x = rng.uniform(0, w)
        draw.line((x, h * 0.9, x, h * rng.uniform(0.45, 0.65)), fill=(30, 24, 30, 255),
                  width=max(3, round(w * 0.012)))


def _fields(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
            w: int, h: int) -> None:
    """Furrowed fields under a wide sky."""
    for k in range(6):
        y = h * (0.68 + 0.05 * k)
        draw.line((0, y, w, y + rng.uniform(-0.02, 0.02) * h),
                  fill=rgba(shade(rng.choice(palette), -0.2), 200), width=max(2, h // 60))


def _stones(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
            w: int, h: int) -> None:
    """Standing stones: a special land."""
    for _ in range(rng.randint(2, 4)):
        x, tall, wide = rng.uniform(0.1, 0.9) * w, rng.uniform(0.2, 0.4) * h, \
            rng.uniform(0.03, 0.06) * w
        draw.rectangle((x - wide, h * 0.85 - tall, x + wide, h * 0.85),
                       fill=rgba(shade(rng.choice(palette), -0.35), 255))


# --- creatures other than beasts and constructs ---------------------------------------------
def _person(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
            w: int, h: int, wings: bool = False) -> None:
    """A standing figure: robed or in a tunic, hooded, helmed or bare-headed, holding a
    staff, a spear, a sword or a lantern (and with wings if it flies)."""
    body = shade(rng.choice(palette), -0.55)
    glow = shade(rng.choice(palette), 0.65)
    cx, feet = rng.uniform(0.38, 0.62) * w, rng.uniform(0.9, 0.96) * h
    tall = rng.uniform(0.58, 0.7) * h
    head = tall * 0.1
    neck = feet - tall + 2 * head
    hips = feet - tall * 0.42
    half = tall * rng.uniform(0.12, 0.16)
    fill = rgba(body, 255)
    if wings:
        _wings(draw, cx, neck + tall * 0.12, tall * rng.uniform(0.55, 0.75), tall * 0.5,
               shade(body, 0.15), 225)
    if rng.random() < 0.5:  # a robe to the feet
        draw.polygon([(cx - half, neck), (cx + half, neck), (cx + half * 1.6, feet),
                      (cx - half * 1.6, feet)], fill=fill)
    else:  # a tunic and legs
        draw.polygon([(cx - half, neck), (cx + half, neck), (cx + half * 1.1, hips + tall * 0.08),
                      (cx - half * 1.1, hips + tall * 0.08)], fill=fill)
        leg = tall * 0.07
        for side in (-1, 1):
            x = cx + side * half * 0.5
            draw.polygon([(x - leg / 2, hips), (x + leg / 2, hips),
                          (x + side * leg * 0.8 + leg / 2, feet),
                          (x + side * leg * 0.8 - leg / 2, feet)], fill=fill)
    arm = max(3, round(tall * 0.06))
    hand = (cx + half * 1.7, neck + tall * 0.3)
    draw.line([(cx + half * 0.8, neck + arm / 2), hand], fill=fill, width=arm)
    draw.line([(cx - half * 0.8, neck + arm / 2), (cx - half * 1.5, neck + tall * 0.32)],
              fill=fill, width=arm)
    thin = max(2, round(tall * 0.025))
    held = rng.choice(("staff", "spear", "sword", "lantern"))
    if held == "staff":
        draw.line([(hand[0], feet), (hand[0], neck - tall * 0.15)], fill=fill, width=thin)
        r = tall * 0.04
        _disc(draw, hand[0], neck - tall * 0.15, r, rgba(glow, 255))
    elif held == "spear":
        top = (hand[0] + tall * 0.05, neck - tall * 0.3)
        draw.line([(hand[0] - tall * 0.03, feet - tall * 0.05), top], fill=fill, width=thin)
        s = tall * 0.05
        draw.polygon([(top[0], top[1] - 2 * s), (top[0] + s * 0.6, top[1] + s * 0.3),
                      (top[0] - s * 0.6, top[1] + s * 0.3)], fill=rgba(glow, 255))
    elif held == "sword":
        blade = [(hand[0] - thin, hand[1]), (hand[0] + thin, hand[1]),
                 (hand[0] + tall * 0.12, hand[1] - tall * 0.32)]
        draw.polygon(blade, fill=rgba(shade(glow, 0.2), 255))
        draw.line([(hand[0] - tall * 0.04, hand[1]), (hand[0] + tall * 0.04, hand[1])],
                  fill=fill, width=thin)
    else:
        draw.line([hand, (hand[0], hand[1] + tall * 0.08)], fill=fill, width=thin)
        r = tall * 0.045
        y = hand[1] + tall * 0.08 + r
        _disc(draw, hand[0], y, 2.5 * r, rgba(glow, 60))
        _disc(draw, hand[0], y, r, rgba(glow, 255))
    hy = neck - head * 0.8
    _disc(draw, cx, hy, head, fill)
    top = rng.choice(("hood", "helm", "bare"))
    if top == "hood":
        draw.polygon([(cx - head * 1.35, hy + head * 0.9), (cx, hy - head * 2.0),
                      (cx + head * 1.35, hy + head * 0.9)], fill=fill)
    elif top == "helm":
        draw.polygon([(cx - head * 0.25, hy - head * 0.8), (cx, hy - head * 1.9),
                      (cx + head * 0.25, hy - head * 0.8)], fill=fill)
    _eyes(draw, cx, hy, head * 0.7, max(2.0, head * 0.14), glow)


def _spirit(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
            w: int, h: int, wings: bool = False) -> None:
    """A hooded shade floating over the ground, its robe frayed into wisps, its sleeves
    hanging, its eyes burning (wings of mist if it flies)."""
    body = shade(rng.choice(palette), -0.6)
    glow = shade(rng.choice(palette), 0.75)
    cx, top = rng.uniform(0.38, 0.62) * w, rng.uniform(0.2, 0.3) * h
    bottom = rng.uniform(0.82, 0.9) * h
    half = (bottom - top) * rng.uniform(0.22, 0.3)
    if wings:
        _wings(draw, cx, top + (bottom - top) * 0.35, half * 2.4, (bottom - top) * 0.45,
               shade(body, 0.2), 150)
    hood = half * 0.7
    wisps = rng.randint(4, 6)
    hem = []
    for k in range(wisps * 2 + 1):
        x = cx + half * 1.4 - k * (2 * half * 1.4) / (wisps * 2)
        hem.append((x, bottom if k % 2 == 0 else bottom - (bottom - top) * 0.14))
    draw.polygon([(cx - hood, top + hood), (cx, top - hood * 0.6), (cx + hood, top + hood),
                  (cx + half, top + (bottom - top) * 0.35), *hem,
                  (cx - half, top + (bottom - top) * 0.35)], fill=rgba(body, 225))
    for side in (-1, 1):  # sleeves
        draw.polygon([(cx + side * half * 0.7, top + (bottom - top) * 0.3),
                      (cx + side * half * 1.9, top + (bottom - top) * 0.55),
                      (cx + side * half * 1.5, top + (bottom - top) * 0.62),
                      (cx + side * half * 0.8, top + (bottom - top) * 0.5)],
                     fill=rgba(body, 210))
    draw.ellipse((cx - hood * 0.6, top, cx + hood * 0.6, top + hood * 1.1),
                 fill=rgba(shade(body, -0.5), 255))
    _eyes(draw, cx, top + hood * 0.55, hood * 0.5, max(2.0, hood * 0.12), glow)


def _serpent(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
             w: int, h: int, wings: bool = False) -> None:
    """A serpent coiling along the ground and rearing its head (a winged wyrm if it
    flies)."""
    body = shade(rng.choice(palette), -0.5)
    glow = shade(rng.choice(palette), 0.65)
    thick = rng.uniform(0.12, 0.15) * h
    base, amp = rng.uniform(0.78, 0.86) * h, rng.uniform(0.04, 0.07) * h
    turn = rng.choice((-1, 1))
    start, end = (0.1, 0.7) if turn > 0 else (0.9, 0.3)
    points = []
    for k in range(25):
        t = k / 24
        x = w * (start + (end - start) * t)
        points.append((x, base + amp * math.sin(t * 3 * math.pi + rng.random() * 0.1)))
    neck_x = points[-1][0]
    head_y = rng.uniform(0.32, 0.42) * h
    points += [(neck_x + turn * thick * 0.8, (base + head_y) / 2),
               (neck_x + turn * thick * 0.4, head_y + thick)]
    if wings:
        _wings(draw, neck_x, (base + head_y) / 2, w * 0.28, h * 0.35, shade(body, 0.15), 225)
    for k in range(len(points) - 1):  # thicker toward the head
        width = round(thick * (0.45 + 0.55 * k / (len(points) - 1)))
        draw.line([points[k], points[k + 1]], fill=rgba(body, 255), width=max(2, width))
        r = width / 2
        x, y = points[k + 1]
        _disc(draw, x, y, r, rgba(body, 255))
    hx, hy = points[-1][0] + turn * thick * 0.3, head_y
    draw.ellipse((hx - thick * 1.1, hy - thick * 0.7, hx + thick * 1.1, hy + thick * 0.7),
                 fill=rgba(body, 255))
    tongue = [(hx + turn * thick * 1.0, hy + thick * 0.2),
              (hx + turn * thick * 1.8, hy + thick * 0.3)]
    draw.line(tongue, fill=rgba((200, 40, 40), 255), width=max(2, round(thick * 0.12)))
    er = max(2.0, thick * 0.16)
    ex = hx + turn * thick * 0.45
    _disc(draw, ex, hy - thick * 0.25, er, rgba(glow, 255))


def _bird(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
          w: int, h: int, wings: bool = False) -> None:
    """A bird: in flight, wings spread, when it flies; else perched, wings folded."""
    body = shade(rng.choice(palette), -0.5)
    glow = shade(rng.choice(palette), 0.65)
    side = rng.choice((-1, 1))
    size = rng.uniform(0.09, 0.13) * w
    cx = rng.uniform(0.35, 0.65) * w
    cy = rng.uniform(0.38, 0.48) * h if wings else rng.uniform(0.6, 0.68) * h
    fill = rgba(body, 255)
    if wings:
        _wings(draw, cx, cy, size * rng.uniform(2.4, 3.2), size * rng.uniform(1.0, 1.6),
               body, 255)
    else:
        for leg in (-0.25, 0.25):
            x = cx + leg * size
            draw.line([(x, cy), (x, cy + size * 0.9)], fill=fill, width=max(2, round(size * 0.06)))
        draw.line([(cx - size, cy + size * 0.9), (cx + size, cy + size * 0.9)],
                  fill=rgba(shade(body, -0.3), 255), width=max(3, round(size * 0.1)))
    draw.polygon([(cx - side * size * 0.8, cy), (cx - side * size * 1.8, cy - size * 0.25),
                  (cx - side * size * 1.8, cy + size * 0.35)], fill=fill)  # tail
    draw.ellipse((cx - size, cy - size * 0.45, cx + size, cy + size * 0.45), fill=fill)
    hx, hy, hr = cx + side * size * 0.95, cy - size * 0.45, size * 0.35
    _disc(draw, hx, hy, hr, fill)
    draw.polygon([(hx + side * hr * 0.8, hy - hr * 0.3), (hx + side * hr * 2.1, hy + hr * 0.1),
                  (hx + side * hr * 0.8, hy + hr * 0.35)], fill=rgba(shade(glow, -0.2), 255))
    er = max(2.0, hr * 0.2)
    _disc(draw, hx + side * hr * 0.3, hy - hr * 0.2, er, rgba(glow, 255))
    if not wings:  # the folded wing
        draw.ellipse((cx - size * 0.7, cy - size * 0.3, cx + size * 0.5, cy + size * 0.35),
                     fill=rgba(shade(body, 0.15), 255))


def _wall(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
          w: int, h: int, wings: bool = False) -> None:
    """A stretch of battlemented stone wall across the ground, watching through a slit
    with glowing eyes."""
    stone = shade(rng.choice(palette), -0.3)
    glow = shade(rng.choice(palette), 0.7)
    left, right = rng.uniform(0.04, 0.14) * w, rng.uniform(0.86, 0.96) * w
    top, bottom = rng.uniform(0.42, 0.5) * h, h * 1.0
    if wings:
        _wings(draw, (left + right) / 2, top, (right - left) * 0.6, h * 0.3, stone, 210)
    rows = 6
    course = (bottom - top) / rows
    brick = course * rng.uniform(1.8, 2.4)
    for row in range(rows):
        y = top + row * course
        x = left - (brick / 2 if row % 2 else 0)
        while x < right:
            tone = shade(stone, rng.uniform(-0.15, 0.12))
            draw.rectangle((max(left, x) + 2, y + 2, min(right, x + brick) - 2, y + course - 2),
                           fill=rgba(tone, 255))
            x += brick
    merlon = (right - left) / 9
    for k in range(0, 9, 2):
        x = left + k * merlon
        draw.rectangle((x + 2, top - course * 0.9, x + merlon - 2, top - 2),
                       fill=rgba(shade(stone, rng.uniform(-0.1, 0.1)), 255))
    slit_y = top + course * 1.5
    cx = (left + right) / 2 + rng.uniform(-0.1, 0.1) * (right - left)
    draw.rectangle((cx - course * 1.3, slit_y - course * 0.35, cx + course * 1.3,
                    slit_y + course * 0.35), fill=rgba(shade(stone, -0.7), 255))
    _eyes(draw, cx, slit_y, course * 1.2, max(2.0, course * 0.2), glow)


def _plant(draw: ImageDraw.ImageDraw, rng: random.Random, palette: Sequence[Colour],
           w: int, h: int, wings: bool = False) -> None:
    """A thick, thorny hedge rooted across the ground, with a few berries: leaves in
    the greenest of the card's colours."""
    leaf = shade(max(palette, key=lambda c: c[1] - (c[0] + c[2]) / 2), -0.3)
    left, right = rng.uniform(0.03, 0.1) * w, rng.uniform(0.9, 0.97) * w
    crown = rng.uniform(0.4, 0.48) * h
    if wings:
        _wings(draw, (left + right) / 2, crown, (right - left) * 0.55, h * 0.3, leaf, 200)
    draw.rectangle((left, 0.78 * h, right, h), fill=rgba(shade(leaf, -0.45), 255))
    blobs = []
    for _ in range(rng.randint(34, 46)):
        r = rng.uniform(0.06, 0.1) * h
        blobs.append((rng.uniform(left + r, right - r), rng.uniform(crown + r, 0.86 * h), r))
    for x, y, r in sorted(blobs, key=lambda b: b[1]):  # back rows first
        tone = shade(leaf, rng.uniform(-0.25, 0.2))
        _disc(draw, x, y, r, rgba(tone, 255))
        for _ in range(2):  # thorns on the rim
            a = rng.uniform(math.pi * 1.05, math.pi * 1.95)
            bx, by = x + r * math.cos(a), y + r * math.sin(a)
            s = r * 0.32
            draw.polygon([(bx - s * 0.35 * math.sin(a), by + s * 0.35 * math.cos(a)),
                          (bx + s * math.cos(a), by + s * math.sin(a)),
                          (bx + s * 0.35 * math.sin(a), by - s * 0.35 * math.cos(a))],
                         fill=rgba(shade(tone, -0.5), 255))
    berry = shade(rng.choice(palette), 0.45)
    for _ in range(rng.randint(4, 9)):
        x, y, r = rng.uniform(left, right), rng.uniform(crown + 0.12 * h, 0.8 * h), 0.014 * h
        _disc(draw, x, y, r, rgba(berry, 255))


_CREATURES = {"person": _person, "beast": _beast, "bird": _bird, "serpent": _serpent,
              "spirit": _spirit, "wall": _wall, "plant": _plant, "construct": _construct}
_SCENES = {"artifact": _artifact, "bolt": _bolt, "spiral": _spiral, "rings": _rings,
           "mountain": _peaks, "island": _waves, "forest": _trees, "swamp": _pools,
           "plains": _fields, "land": _stones}
