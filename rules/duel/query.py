"""A small query language over Arcane Duel's cards, as the web gallery's search box reads it.

A query is terms separated by spaces; a card must match every term.

==================  ==========================================================
``ember``           the name holds the word (``n:ember`` too; ``"ember drake"``: the
                    phrase)
``c:red``           colour: ``white``, ``blue``, ``black``, ``red``, ``green``,
                    ``colourless`` (or ``w u b r g c``); ``c!=red`` too
``t:creature``      a kind of card (``t:artifact``, ``t:land``), or a word of its type
                    line (``t:swamp``, ``t:mono``)
``pow>=3``          power, toughness (``tou``) or mana value (``cmc``) compared
                    with ``=  !=  <  <=  >  >=`` (``:`` means ``=``)
``o:trample``       the rules text holds the words (``o:"first strike"``)
``r:rare``          rarity ``common``, ``uncommon``, ``rare``; ``r>=uncommon`` too
``-t:land``         ``-`` before a term keeps the cards it does not match
==================  ==========================================================

Words and values are read in any case. Cards that have no power (a sorcery, say) never
match ``pow…``, so ``-pow>=3`` keeps them: a negated term is always the complement.

>>> [c.name for c in search("c:red t:creature pow>=4 -o:trample")]
['Kessa Pyrewyrm']
>>> parse('o:"first strike" -c:white').terms[0]
Term(field='text', op=':', value='first strike', negated=False)

What cannot be read raises :class:`QueryError` with a key saying why (the words are
the page's to choose) and what was read there:

>>> parse("pow>=lots")
Traceback (most recent call last):
...
rules.duel.query.QueryError: not-a-number: pow, lots
>>> parse("x:1")
Traceback (most recent call last):
...
rules.duel.query.QueryError: unknown-field: x
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from rules.duel.cards import COLOUR_NAMES, COLOURS, CardDef, card_set
from rules.duel.packs import RARITY_RANK

MAX_LENGTH = 200
"""The longest query read, in characters: a search box needs far fewer."""
MAX_TERMS = 12
"""The most terms a query may have."""
MAX_DIGITS = 3
"""The longest number a comparison reads (no card's value comes near it)."""

FieldName = Literal["name", "colour", "type", "power", "toughness", "cmc", "text", "rarity"]
Op = Literal[":", "=", "!=", "<", "<=", ">", ">="]

FIELDS: Mapping[str, FieldName] = {
    "n": "name", "name": "name",
    "c": "colour", "color": "colour", "colour": "colour",
    "t": "type", "type": "type",
    "pow": "power", "power": "power",
    "tou": "toughness", "toughness": "toughness",
    "cmc": "cmc", "mv": "cmc",
    "o": "text", "oracle": "text", "text": "text",
    "r": "rarity", "rarity": "rarity",
}
"""Every key a term may start with, and the field it reads."""

COMPARISONS: tuple[Op, ...] = ("=", "!=", "<", "<=", ">", ">=")
_WORDS_OPS: tuple[Op, ...] = (":", "=")
OPS: Mapping[FieldName, tuple[Op, ...]] = {
    "name": _WORDS_OPS, "type": _WORDS_OPS, "text": _WORDS_OPS,
    "colour": (":", "=", "!="),
    "power": (":", *COMPARISONS), "toughness": (":", *COMPARISONS),
    "cmc": (":", *COMPARISONS), "rarity": (":", *COMPARISONS),
}
"""The operators each field understands."""

COLOUR_VALUES: Mapping[str, str | None] = {
    **{name: letter for letter, name in COLOUR_NAMES.items()},
    **{letter.lower(): letter for letter in COLOURS},
    "c": None, "colourless": None, "colorless": None,
}
"""What ``c:`` reads: a colour's name or letter, or colourless (``None``)."""
RARITY_VALUES: Mapping[str, str] = {"common": "common", "c": "common",
                                    "uncommon": "uncommon", "u": "uncommon",
                                    "rare": "rare", "r": "rare"}
_RARITY_ORDER: Mapping[str, int] = {r: -rank for r, rank in RARITY_RANK.items()}
"""Commoner is less: ``r>=uncommon`` means uncommon or rare."""

_KEY = re.compile(r"([A-Za-z]+)(!=|<=|>=|:|=|<|>)")
_NUMBER = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
_BARE = re.compile(r'[^\s"]*')


class QueryError(ValueError):
    """A query that cannot be read: ``key`` names the problem, ``details`` the parts of
    the query (or limits) it concerns, for the page to put in words."""

    def __init__(self, key: str, *details: str | int) -> None:
        super().__init__(key, *details)
        self.key = key
        self.details = details

    def __str__(self) -> str:
        return f"{self.key}: {', '.join(map(str, self.details))}" if self.details else self.key


@dataclass(frozen=True, slots=True)
class CardWords:
    """A card's words in one language, case-folded (the rules know only the set's own:
    ``bot.duel.card_words.search_words`` gives them)."""

    name: str
    type_line: str
    text: str


Also = Mapping[str, CardWords]
"""Each card's words in another language, by the card's name in the set."""


@dataclass(frozen=True, slots=True)
class Term:
    """One condition of a query: ``field op value``, or its complement if ``negated``.

    >>> Term("power", ">=", 3).matches(card_set()["Kindlewhip"])
    False
    >>> Term("power", ">=", 3, negated=True).matches(card_set()["Kindlewhip"])
    True
    """

    field: FieldName
    op: Op
    value: str | int | None
    negated: bool = False

    def matches(self, data: CardDef, also: Also | None = None) -> bool:
        """Whether card ``data`` meets the term (``also``: the card's words in another
        language, which name, type and text terms read too)."""
        return self._holds(data, (also or {}).get(data.name)) != self.negated

    def negate(self) -> Term:
        """The complementary term (``-`` before it)."""
        return replace(self, negated=not self.negated)

    def _holds(self, data: CardDef, other: CardWords | None = None) -> bool:
        match self.field:
            case "name":
                return str(self.value) in data.name.casefold() or (
                    other is not None and str(self.value) in other.name)
            case "type":
                return _is_type(data, str(self.value)) or (
                    other is not None and str(self.value) in other.type_line)
            case "text":
                return str(self.value) in data.text().casefold() or (
                    other is not None and str(self.value) in other.text)
            case "colour":
                return (data.colour == self.value) == (self.op != "!=")
            case "rarity":
                return _compare(_RARITY_ORDER[data.rarity],
                                self.op, _RARITY_ORDER[str(self.value)])
            case "power":
                return data.power is not None and _compare(data.power, self.op, self.value)
            case "toughness":
                return data.toughness is not None and _compare(data.toughness, self.op,
                                                               self.value)
        return _compare(data.cost_parts.mana_value, self.op, self.value)


KINDS = frozenset({"creature", "artifact", "enchantment", "permanent", "land", "instant",
                   "sorcery", "interrupt"})
"""Words ``t:`` reads as what a card *is* rather than as words of its type line."""


def _is_type(data: CardDef, word: str) -> bool:
    """``t:``: a kind the card counts as (an artifact creature is a creature, an aura an
    enchantment, but an aura that enchants a creature is no creature); any other word
    is looked for in the type line (``t:swamp``, ``t:mono``, ``t:enchant``)."""
    if word in KINDS:
        return data.is_a(word)
    return word in data.type_line().casefold() or word in data.type


def _compare(left: int, op: Op, right: object) -> bool:
    if not isinstance(right, int):
        return False
    match op:
        case ":" | "=":
            return left == right
        case "!=":
            return left != right
        case "<":
            return left < right
        case "<=":
            return left <= right
        case ">":
            return left > right
    return left >= right


@dataclass(frozen=True, slots=True)
class Query:
    """Terms a card must all meet (none: every card)."""

    terms: tuple[Term, ...] = ()

    def matches(self, data: CardDef, also: Also | None = None) -> bool:
        """Whether card ``data`` meets every term."""
        return all(term.matches(data, also) for term in self.terms)

    def select(self, cards: Iterable[CardDef], also: Also | None = None) -> list[CardDef]:
        """The cards that match, in the order given."""
        return [c for c in cards if self.matches(c, also)]


def parse(text: str) -> Query:
    """Read a query (see the module's table). :class:`QueryError` if it is longer than
    :data:`MAX_LENGTH`, has more than :data:`MAX_TERMS` terms, or does not read.

    >>> parse("  ember  -r:rare  ").terms
    (Term(field='name', op=':', value='ember', negated=False), \
Term(field='rarity', op=':', value='rare', negated=True))
    >>> parse("").terms
    ()
    """
    if len(text) > MAX_LENGTH:
        raise QueryError("too-long", MAX_LENGTH)
    terms: list[Term] = []
    at = _skip_spaces(text, 0)
    while at < len(text):
        term, at = _term(text, at)
        terms.append(term)
        if len(terms) > MAX_TERMS:
            raise QueryError("too-many-terms", MAX_TERMS)
        at = _skip_spaces(text, at)
    return Query(tuple(terms))


def _skip_spaces(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _term(text: str, at: int) -> tuple[Term, int]:
    """The term starting at ``at`` and where the next one may start."""
    negated = text.startswith("-", at)
    at += negated
    key = _KEY.match(text, at)
    field: FieldName = "name"
    op: Op = ":"
    if key is not None:
        if key[1].casefold() not in FIELDS:
            raise QueryError("unknown-field", key[1])
        field, op = FIELDS[key[1].casefold()], key[2]  # type: ignore[assignment]
        at = key.end()
        if op not in OPS[field]:
            raise QueryError("bad-operator", key[1], op)
    raw, at = _value(text, at)
    if not raw:
        if key is not None:
            raise QueryError("missing-value", key[1], op)
        raise QueryError("lone-minus" if negated else "empty-phrase")
    return Term(field, op, _read_value(field, key[1] if key else "", raw), negated), at


def _value(text: str, at: int) -> tuple[str, int]:
    """A quoted phrase or a run of characters up to a space; where it ends."""
    if text.startswith('"', at):
        end = text.find('"', at + 1)
        if end < 0:
            raise QueryError("unclosed-quote")
        raw, at = text[at + 1:end], end + 1
    else:
        found = _BARE.match(text, at)
        raw, at = (found[0], found.end()) if found else ("", at)
    if at < len(text) and not text[at].isspace():
        raise QueryError("glued-quote")  # a quote opened or left inside a word
    return " ".join(raw.casefold().split()), at


def _read_value(field: FieldName, key: str, raw: str) -> str | int | None:
    """The value as the term compares it."""
    match field:
        case "colour":
            if raw not in COLOUR_VALUES:
                raise QueryError("unknown-colour", raw)
            return COLOUR_VALUES[raw]
        case "rarity":
            if raw not in RARITY_VALUES:
                raise QueryError("unknown-rarity", raw)
            return RARITY_VALUES[raw]
        case "power" | "toughness" | "cmc":
            if not _NUMBER.fullmatch(raw):
                raise QueryError("not-a-number", key, raw)
            return int(raw)
    return raw


def gallery_order(data: CardDef) -> tuple[int, str]:
    """The gallery's order: the five colours in turn, then artifacts, then lands; by name
    within each."""
    if data.colour is not None:
        group = COLOURS.index(data.colour)  # type: ignore[arg-type]
    else:
        group = len(COLOURS) + (data.type == "land")
    return group, data.name


def search(text: str, cards: Iterable[CardDef] | None = None,
           also: Also | None = None) -> list[CardDef]:
    """The cards (default: the whole set) that match query ``text``, in
    :func:`gallery_order`; ``also``: each card's words in the reader's language (by the
    card's name in the set), which name, type and text terms match too, so that a
    reader finds a card by the words they see.

    >>> [c.name for c in search("chicote", also={"Kindlewhip": CardWords(
    ...     "chicote de brasa", "mágica instantânea", "cause 2 de dano a qualquer alvo.")})]
    ['Kindlewhip']
    """
    query = parse(text)
    pool = card_set().values() if cards is None else cards
    return sorted(query.select(pool, also), key=gallery_order)
