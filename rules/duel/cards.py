"""Arcane Duel's cards as data: the schema every card file is read with.

A card is a row of a TOML file in ``rules/duel/cardsets/`` (read with
:mod:`importlib.resources`), checked by the pydantic models below when the set
is loaded. What a card *does* is written in a small vocabulary of effects
(:class:`Effect`) — deal damage, gain life, draw, destroy, counter, pump … —
with a target and conditions, so a new card needs no new code wherever the
vocabulary serves. A card's rules text is written from that data
(:meth:`CardDef.text`), so the text and what the engine does cannot drift apart.

>>> bolt = CardDef(name="Ember Dart", cost="R", type="instant", rarity="common",
...                spell=[Effect(do="damage", amount=2, target="any")])
>>> bolt.colour, bolt.cost_parts.mana_value
('R', 1)
>>> bolt.text()
'Deal 2 damage to any target.'
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rules.words import joined

Colour = Literal["W", "U", "B", "R", "G"]
COLOURS: tuple[Colour, ...] = ("W", "U", "B", "R", "G")
COLOUR_NAMES: Mapping[str, str] = {"W": "white", "U": "blue", "B": "black", "R": "red",
                                   "G": "green"}
BasicType = Literal["plains", "island", "swamp", "mountain", "forest"]
BASIC_OF: Mapping[str, BasicType] = {"W": "plains", "U": "island", "B": "swamp",
                                     "R": "mountain", "G": "forest"}
"""The basic land type that makes each colour's mana (landwalk names these)."""

CardType = Literal["land", "creature", "artifact", "artifact creature", "enchantment",
                   "enchant creature", "enchant artifact", "enchant land",
                   "enchant enchantment", "sorcery", "instant", "interrupt"]
PERMANENT_TYPES = frozenset({"land", "creature", "artifact", "artifact creature",
                             "enchantment", "enchant creature", "enchant artifact",
                             "enchant land", "enchant enchantment"})
AURA_TYPES: Mapping[str, str] = {"enchant creature": "creature",
                                 "enchant artifact": "artifact",
                                 "enchant land": "land",
                                 "enchant enchantment": "enchantment"}
"""Each enchant-something type and the kind of permanent it is attached to."""
FAST_TYPES = frozenset({"instant", "interrupt"})
Rarity = Literal["common", "uncommon", "rare"]
ArtifactKind = Literal["mono", "poly", "continuous", "creature"]

KEYWORDS = ("flying", "first strike", "trample", "banding")
"""Keywords without a parameter; ``landwalk:<basic type>`` and
``protection:<colour>`` take one."""
_KEYWORD = re.compile(r"^(flying|first strike|trample|banding|"
                      r"landwalk:(plains|island|swamp|mountain|forest)|protection:[WUBRG])$")

_COST = re.compile(r"^(X?)([0-9]?)((?:W|U|B|R|G)*)$")


@dataclass(frozen=True, slots=True)
class Cost:
    """A mana cost: generic mana, coloured mana by colour, and whether X is paid.

    >>> Cost.parse("X2RR")
    Cost(generic=2, coloured=(('R', 2),), x=True)
    >>> Cost.parse("1WU").mana_value, str(Cost.parse("1WU"))
    (3, '1WU')
    """

    generic: int = 0
    coloured: tuple[tuple[str, int], ...] = ()
    x: bool = False

    @classmethod
    def parse(cls, text: str) -> Cost:
        """Read a cost written like ``2RR`` or ``XG`` (``""``: nothing to pay)."""
        return _parse_cost(text)

    @classmethod
    def _read(cls, text: str) -> Cost:
        found = _COST.match(text)
        if found is None:
            raise ValueError(f"{text!r} is not a mana cost (e.g. 2RR, XG, 0)")
        counts: dict[str, int] = {}
        for letter in found[3]:
            counts[letter] = counts.get(letter, 0) + 1
        ordered = tuple((c, counts[c]) for c in COLOURS if c in counts)
        return cls(int(found[2] or 0), ordered, bool(found[1]))

    @property
    def mana_value(self) -> int:
        """Mana paid, X counted as 0."""
        return self.generic + sum(n for _, n in self.coloured)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours the cost asks for."""
        return tuple(c for c, _ in self.coloured)

    def __str__(self) -> str:
        coloured = "".join(c * n for c, n in self.coloured)
        generic = str(self.generic) if self.generic or not coloured else ""
        return ("X" if self.x else "") + (generic if not (self.x and generic == "0") else "") \
            + coloured


@cache
def _parse_cost(text: str) -> Cost:
    """Costs are read over and over while options are worked out: once each."""
    return Cost._read(text)


TargetKind = Literal[
    "none", "any", "creature", "player", "opponent", "you", "self", "enchanted",
    "spell", "artifact", "enchantment", "land", "permanent",
    "each creature", "each other creature", "each opponent creature", "your creatures",
    "each player", "each opponent", "attacking creature", "blocking creature",
]
"""What an effect acts on. A single target of a kind is chosen when the card is
cast (``any`` = a creature or a player); ``you``, ``opponent`` (in a duel),
``self`` (the card's own permanent) and ``enchanted`` (what the card enchants)
need no choice; the ``each …`` and ``your creatures`` kinds act on every match."""
CHOSEN_TARGETS = frozenset({"any", "creature", "player", "spell", "artifact", "enchantment",
                            "land", "permanent", "attacking creature", "blocking creature"})
EACH_TARGETS = frozenset({"each creature", "each other creature", "each opponent creature",
                          "your creatures", "each player", "each opponent"})

EffectKind = Literal[
    "damage", "gain life", "lose life", "draw", "discard", "destroy", "counter", "pump",
    "tap", "untap", "add mana", "grant", "prevent", "regenerate", "bounce", "search",
    "recolour",
]


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Data):
    """One thing a card does, in the engine's vocabulary.

    ``amount`` may be ``"X"`` on a card whose cost has X. ``colour`` filters a
    chosen target by colour (``destroy`` a black creature), or names the mana
    made (``add mana``) or the new colour (``recolour``); ``keyword`` is granted
    (``grant``) or required of the target; ``find`` is the card type ``search``
    looks for.
    """

    do: EffectKind
    target: TargetKind = "none"
    amount: int | Literal["X"] = 0
    power: int = 0
    toughness: int = 0
    colour: Colour | None = None
    keyword: str | None = None
    find: CardType | None = None

    @model_validator(mode="after")
    def _fits(self) -> Effect:
        needs_target = {"damage", "destroy", "pump", "tap", "untap", "grant", "prevent",
                        "regenerate", "bounce", "recolour", "counter"}
        if self.do in needs_target and self.target == "none":
            raise ValueError(f"a {self.do!r} effect needs a target")
        if self.do == "counter" and self.target != "spell":
            raise ValueError("a counter effect targets a spell")
        if self.target == "spell" and self.do != "counter":
            raise ValueError("only a counter effect targets a spell")
        if self.do in {"damage", "gain life", "lose life", "draw", "discard", "prevent",
                       "add mana"} and self.amount in (0, "0"):
            raise ValueError(f"a {self.do!r} effect needs an amount")
        if self.do == "add mana" and self.colour is None:
            raise ValueError("an 'add mana' effect names its colour")
        if self.do == "recolour" and self.colour is None:
            raise ValueError("a 'recolour' effect names the new colour")
        if self.do == "grant" and (self.keyword is None or not _KEYWORD.match(self.keyword)):
            raise ValueError(f"a 'grant' effect needs a keyword, not {self.keyword!r}")
        if self.keyword is not None and not _KEYWORD.match(self.keyword):
            raise ValueError(f"{self.keyword!r} is not a keyword")
        if self.colour is not None and self.do not in {"add mana", "recolour", "counter"} \
                and "creature" not in self.target:
            # Only creatures are narrowed by colour: a language agrees the colour with
            # the noun it describes (rules/duel/card_text.py words creatures only).
            raise ValueError(f"a {self.do!r} effect narrows only creatures by colour")
        if self.do == "search" and self.find is None:
            raise ValueError("a 'search' effect says what it finds")
        if self.do == "pump" and not (self.power or self.toughness):
            raise ValueError("a 'pump' effect changes power or toughness")
        return self

    @property
    def chooses_target(self) -> bool:
        """Whether casting the card chooses this effect's target."""
        return self.target in CHOSEN_TARGETS

    def text(self, enchants: str | None = None) -> str:
        """The effect as a sentence of rules text (``enchants``: what the aura
        it is on enchants)."""
        amount = str(self.amount)
        whom = _target_words(self, enchants)
        match self.do:
            case "damage":
                return f"Deal {amount} damage to {whom}."
            case "gain life":
                return f"{_subject(whom)} gain{_s(whom)} {amount} life."
            case "lose life":
                return f"{_subject(whom)} lose{_s(whom)} {amount} life."
            case "draw":
                return f"{_subject(whom)} draw{_s(whom)} {_cards(amount)}."
            case "discard":
                return f"{_subject(whom)} discard{_s(whom)} {_cards(amount)} at random."
            case "destroy":
                return f"Destroy {whom}."
            case "counter":
                return "Counter target spell" + (
                    f" that is {COLOUR_NAMES[self.colour]}." if self.colour else ".")
            case "pump":
                return f"{_subject(whom)} get{_s(whom)} {self.power:+d}/{self.toughness:+d} " \
                       "until end of turn."
            case "tap" | "untap":
                return f"{self.do.capitalize()} {whom}."
            case "add mana":
                return f"Add {COLOUR_NAMES[self.colour or 'W']} mana" + (
                    f" ×{amount}." if amount != "1" else ".")
            case "grant":
                return f"{_subject(whom)} gain{_s(whom)} {keyword_words(self.keyword or '')} " \
                       "until end of turn."
            case "prevent":
                return f"Prevent the next {amount} damage to " \
                       f"{'it' if whom == 'this' else whom} this turn."
            case "regenerate":
                return f"Regenerate {whom}."
            case "bounce":
                return f"Return {whom} to its owner's hand."
            case "search":
                article = "an" if (self.find or "")[0] in "aeiou" else "a"
                return f"Search your library for {article} {self.find} card, put it into " \
                       "your hand, then shuffle."
            case "recolour":
                return f"{_subject(whom)} become{_s(whom)} {COLOUR_NAMES[self.colour or 'W']} " \
                       "until end of turn."
        raise AssertionError(self.do)  # pragma: no cover - every kind is matched


def _s(whom: str) -> str:
    """The verb's ending after ``whom``: "you gain", "creatures you control get",
    but "target creature gets", "each player draws"."""
    return "" if whom == "you" else "s"


def _subject(whom: str) -> str:
    return whom[0].upper() + whom[1:]


def _cards(amount: str) -> str:
    return "a card" if amount == "1" else f"{amount} cards"


def _target_words(effect: Effect, enchants: str | None = None) -> str:
    colour = f"{COLOUR_NAMES[effect.colour]} " if effect.colour and effect.do not in {
        "add mana", "recolour"} else ""
    keyword = f" with {keyword_words(effect.keyword)}" if effect.keyword and effect.do != \
        "grant" else ""
    creature = f"{colour}creature{keyword}"
    words = {
        "none": "", "any": "any target", "player": "target player",
        "opponent": "your opponent", "you": "you", "self": "this",
        "enchanted": f"the enchanted {enchants or 'permanent'}", "spell": "target spell",
        "each creature": f"each {creature}", "each other creature": f"each other {creature}",
        "each opponent creature": f"each {creature} your opponent controls",
        "your creatures": f"each {creature} you control", "each player": "each player",
        "each opponent": "each opponent",
    }
    if effect.target in words:
        return words[effect.target]
    noun = effect.target
    return f"target {colour}{noun}{keyword}"


def keyword_words(keyword: str) -> str:
    """A keyword as rules text says it.

    >>> keyword_words("landwalk:swamp"), keyword_words("protection:B")
    ('swampwalk', 'protection from black')
    """
    if keyword.startswith("landwalk:"):
        return keyword.split(":", 1)[1] + "walk"
    if keyword.startswith("protection:"):
        return "protection from " + COLOUR_NAMES[keyword.split(":", 1)[1]]
    return keyword


class Ability(_Data):
    """An activated ability of a permanent: pay ``cost`` (mana, ``T`` to tap it,
    life, sacrificing it), then its effects. Abilities are fast effects; one
    that only adds mana resolves at once, like an interrupt."""

    cost: str = ""
    """Mana in the cost notation, with ``T`` first to tap (``T``, ``T2``, ``1G``)."""
    life: int = 0
    sacrifice: bool = False
    effects: tuple[Effect, ...] = Field(min_length=1)

    @property
    def taps(self) -> bool:
        """Whether using it taps the permanent."""
        return self.cost.startswith("T")

    @property
    def mana(self) -> Cost:
        """The mana part of the cost."""
        return Cost.parse(self.cost.removeprefix("T"))

    @property
    def mana_only(self) -> bool:
        """An ability that only adds mana (it needs no stack)."""
        return all(e.do == "add mana" for e in self.effects)

    @model_validator(mode="after")
    def _readable(self) -> Ability:
        Cost.parse(self.cost.removeprefix("T"))
        if "X" in self.cost:
            raise ValueError("an ability's cost cannot have X")
        if sum(1 for e in self.effects if e.chooses_target) > 1:
            raise ValueError("an ability chooses at most one target")
        if any(e.do == "counter" for e in self.effects):
            raise ValueError("only interrupts counter spells")
        return self

    def text(self) -> str:
        """``cost: effects`` as printed."""
        parts = (["tap"] if self.taps else []) + (
            [str(self.mana)] if self.mana.mana_value else []) + (
            [f"pay {self.life} life"] if self.life else []) + (
            ["sacrifice this"] if self.sacrifice else [])
        cost = ", ".join(parts) or "free"
        return f"{cost[0].upper()}{cost[1:]}: " + " ".join(e.text() for e in self.effects)


class Static(_Data):
    """An always-on effect of a permanent in play (an enchantment, an aura, a
    continuous artifact). It stops while its artifact is tapped.

    ``applies`` says to what: the permanent the aura enchants, every creature,
    yours, the opponent's, or this permanent itself; ``colour`` and
    ``keyword`` narrow it to creatures of a colour or with a keyword.
    """

    applies: Literal["enchanted", "each creature", "your creatures",
                     "each opponent creature", "self"]
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    colour: Colour | None = None
    keyword: str | None = None
    no_untap: bool = False
    """What it applies to does not untap in its controller's untap step."""
    cant_attack: bool = False
    cant_block: bool = False
    extra_mana: int = 0
    """An enchanted land makes this much more of its mana when tapped for mana."""

    @model_validator(mode="after")
    def _fits(self) -> Static:
        for word in (*self.keywords, *([self.keyword] if self.keyword else [])):
            if not _KEYWORD.match(word):
                raise ValueError(f"{word!r} is not a keyword")
        if not (self.power or self.toughness or self.keywords or self.no_untap
                or self.cant_attack or self.cant_block or self.extra_mana):
            raise ValueError("a static effect must change something")
        return self

    def text(self, enchants: str | None = None) -> str:
        """The effect as rules text (``enchants``: what its aura enchants)."""
        colour = f"{COLOUR_NAMES[self.colour]} " if self.colour else ""
        keyword = f" with {keyword_words(self.keyword)}" if self.keyword else ""
        subject = {
            "enchanted": f"Enchanted {enchants or 'permanent'}", "self": "This",
            "each creature": f"Each {colour}creature{keyword}",
            "your creatures": f"Each {colour}creature{keyword} you control",
            "each opponent creature": f"Each {colour}creature{keyword} your opponent controls",
        }[self.applies]
        parts = []
        if self.power or self.toughness:
            parts.append(f"gets {self.power:+d}/{self.toughness:+d}")
        if self.keywords:
            parts.append("has " + joined([keyword_words(k) for k in self.keywords]))
        if self.no_untap:
            parts.append("does not untap during its controller's untap step")
        if self.cant_attack:
            parts.append("cannot attack")
        if self.cant_block:
            parts.append("cannot block")
        if self.extra_mana:
            parts.append(f"makes {self.extra_mana} more mana when tapped for mana")
        return f"{subject} {joined(parts)}."


class CardDef(_Data):
    """One card of the set, as its file writes it."""

    name: str = Field(min_length=2, max_length=40, pattern=r"^[A-Z][A-Za-z' -]*[a-z]$")
    """Letters, spaces, apostrophes and hyphens only: the notation separates
    names with commas, bars and other signs."""
    cost: str = ""
    type: CardType
    rarity: Rarity
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()
    basic: BasicType | None = None
    """For a land: the basic land type it is (basic lands make that colour's mana)."""
    produces: tuple[Colour, ...] = ()
    """For a land: the colours of mana it can tap for (one a time)."""
    artifact: ArtifactKind | None = None
    spell: tuple[Effect, ...] = ()
    """What an instant, interrupt or sorcery does when it resolves."""
    enters: tuple[Effect, ...] = ()
    """What a permanent does when it comes into play."""
    upkeep: tuple[Effect, ...] = ()
    """What a permanent does at its controller's upkeep."""
    abilities: tuple[Ability, ...] = ()
    statics: tuple[Static, ...] = ()
    enhance: tuple[tuple[Colour, int, int], ...] = ()
    """Mana-enhanced power/toughness: (colour, power, toughness) per mana paid,
    until end of turn, any number of times at any priority window."""
    flavor: str = Field("", max_length=200)

    @model_validator(mode="after")
    def _fits(self) -> CardDef:
        cost = Cost.parse(self.cost)
        creature = self.type in {"creature", "artifact creature"}
        if creature != (self.power is not None and self.toughness is not None):
            raise ValueError(f"{self.name}: power and toughness exactly on creatures")
        if creature and (self.power < 0 or self.toughness < 1):  # type: ignore[operator]
            raise ValueError(f"{self.name}: power ≥ 0 and toughness ≥ 1")
        for word in self.keywords:
            if not _KEYWORD.match(word):
                raise ValueError(f"{self.name}: {word!r} is not a keyword")
        if self.keywords and not creature:
            raise ValueError(f"{self.name}: only creatures have keywords")
        if self.type == "land":
            if self.cost or (not self.produces and not self.abilities):
                raise ValueError(f"{self.name}: a land costs nothing and makes mana")
        elif self.produces or self.basic:
            raise ValueError(f"{self.name}: only lands produce mana as lands")
        is_artifact = self.type in {"artifact", "artifact creature"}
        if is_artifact != (self.artifact is not None):
            raise ValueError(f"{self.name}: artifacts, and only they, say their kind")
        if is_artifact and cost.colours:
            raise ValueError(f"{self.name}: artifacts never require coloured mana")
        if self.type not in {"land"} and not is_artifact and not cost.colours:
            raise ValueError(f"{self.name}: a spell's cost names its colour")
        if len(set(cost.colours)) > 1:
            raise ValueError(f"{self.name}: a card has one colour at a time")
        if (self.type in {"sorcery", "instant", "interrupt"}) != bool(self.spell):
            raise ValueError(f"{self.name}: sorceries, instants and interrupts, and only "
                             "they, have a spell effect")
        if self.type in AURA_TYPES and not self.statics and not self.upkeep \
                and not self.abilities:
            raise ValueError(f"{self.name}: an aura does something to what it enchants")
        x_used = any(e.amount == "X" for e in (*self.spell, *self.enters))
        if x_used != cost.x:
            raise ValueError(f"{self.name}: X in the cost exactly when an effect uses X")
        if self.artifact == "continuous" and not self.statics:
            raise ValueError(f"{self.name}: a continuous artifact has a static effect")
        if self.artifact == "mono" and not any(a.taps for a in self.abilities):
            raise ValueError(f"{self.name}: a mono artifact taps to use")
        if self.artifact == "poly" and (not self.abilities or any(a.taps
                                                                  for a in self.abilities)):
            raise ValueError(f"{self.name}: a poly artifact is used without tapping")
        if self.enhance and not creature:
            raise ValueError(f"{self.name}: only creatures are mana-enhanced")
        targets = [e for e in (*self.spell, *self.enters) if e.chooses_target]
        if len(targets) > 1:
            raise ValueError(f"{self.name}: at most one chosen target per card")
        if any(e.chooses_target for e in self.upkeep):
            raise ValueError(f"{self.name}: upkeep effects choose no target")
        if any(e.do == "counter" for e in (*self.spell, *self.enters, *self.upkeep)) \
                and self.type != "interrupt":
            raise ValueError(f"{self.name}: only interrupts counter spells")
        if any(e.target == "enchanted" for e in (*self.spell, *self.enters, *self.upkeep)) \
                and self.type not in AURA_TYPES:
            raise ValueError(f"{self.name}: only auras act on what they enchant")
        return self

    # -- what the engine asks -------------------------------------------------
    @property
    def cost_parts(self) -> Cost:
        """The mana cost, read."""
        return Cost.parse(self.cost)

    @property
    def colour(self) -> str | None:
        """The card's colour: the colour of mana its cost requires (``None``:
        lands and artifacts are colourless)."""
        colours = self.cost_parts.colours
        return colours[0] if colours else None

    @property
    def is_creature(self) -> bool:
        """Creature or artifact creature."""
        return self.type in {"creature", "artifact creature"}

    @property
    def is_permanent(self) -> bool:
        """Stays in play once it resolves."""
        return self.type in PERMANENT_TYPES

    @property
    def is_fast(self) -> bool:
        """Instants and interrupts may be cast at any priority window."""
        return self.type in FAST_TYPES

    def is_a(self, kind: str) -> bool:
        """Whether the card counts as ``kind``: a card type, or ``creature``
        (artifact creatures too), ``artifact`` (any kind), ``enchantment``
        (auras too) or ``permanent``.

        >>> card("Kindlewhip").is_a("instant"), card("Kindlewhip").is_a("permanent")
        (True, False)
        """
        match kind:
            case "creature":
                return self.is_creature
            case "artifact":
                return self.artifact is not None
            case "enchantment":
                return self.type == "enchantment" or self.enchants is not None
            case "permanent":
                return self.is_permanent
        return self.type == kind

    @property
    def enchants(self) -> str | None:
        """For an aura, the kind of permanent it is attached to."""
        return AURA_TYPES.get(self.type)

    def target_effect(self) -> Effect | None:
        """The effect whose target is chosen when the card is cast, if any."""
        for effect in (*self.spell, *self.enters):
            if effect.chooses_target:
                return effect
        return None

    def type_line(self) -> str:
        """The type line: ``Creature — flying``, ``Artifact (mono)``, ``Basic land — swamp``."""
        if self.type == "land":
            return f"Basic land — {self.basic}" if self.basic else "Land"
        if self.artifact and self.type == "artifact":
            return f"Artifact ({self.artifact})"
        return self.type[0].upper() + self.type[1:]

    def text(self) -> str:
        """The card's rules text, written from its data."""
        lines: list[str] = []
        if self.keywords:
            lines.append(joined([keyword_words(k) for k in self.keywords]).capitalize() + ".")
        if self.type == "land" and self.produces:
            lines.append("Tap: Add " + " or ".join(COLOUR_NAMES[c] for c in self.produces)
                         + " mana.")
        enchants = self.enchants
        lines += [" ".join(e.text(enchants) for e in self.spell)] if self.spell else []
        if self.enters:
            lines.append("When this comes into play: " + " ".join(e.text(enchants)
                                                                   for e in self.enters))
        if self.upkeep:
            lines.append("At your upkeep: " + " ".join(e.text(enchants) for e in self.upkeep))
        lines += [a.text() for a in self.abilities]
        lines += [s.text(enchants) for s in self.statics]
        for colour, power, toughness in self.enhance:
            lines.append(f"{colour}: This gets {power:+d}/{toughness:+d} until end of turn.")
        return "\n".join(lines)


class CardFile(_Data):
    """One TOML file of the set: ``[[card]]`` tables."""

    card: tuple[CardDef, ...]


class CardSetError(ValueError):
    """A card file that does not read (the message names the file and card)."""


@cache
def card_set() -> Mapping[str, CardDef]:
    """Every card of the set by name, read and checked once.

    >>> len(card_set()) >= 5
    True
    """
    cards: dict[str, CardDef] = {}
    for entry in sorted(_card_files(), key=lambda e: e.name):
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            read = CardFile.model_validate(data)
        except (tomllib.TOMLDecodeError, ValidationError) as exc:
            raise CardSetError(f"{entry.name}: {exc}") from exc
        for card in read.card:
            if card.name.casefold() in {n.casefold() for n in cards}:
                raise CardSetError(f"{entry.name}: {card.name!r} is in the set twice")
            cards[card.name] = card
    return cards


def _card_files() -> Iterator[Traversable]:
    for entry in resources.files("rules.duel.cardsets").iterdir():
        if entry.name.endswith(".toml"):
            yield entry


def card(name: str) -> CardDef:
    """The card called ``name`` (exactly); :class:`KeyError` if there is none."""
    return card_set()[name]
