"""The small pieces a duel's words are made of, as phrases (docs/i18n.md): a card's
name as an argument, a phase, a colour, a keyword, and a list of names. Every event,
prompt and refusal of the duel's rules builds its phrase from these, so a language
says each piece its own way and a sentence is never glued from English fragments.

>>> phase("main")
Phrase(duel.phase.main())
>>> listed(["Ada", "Bo", "Cy"])
Phrase(duel.list.comma(first='Ada', rest=Phrase(duel.list.comma(first='Bo', rest='Cy'))))
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.phrases import Named, Phrase, Words

PHASES: dict[str, Phrase] = {
    "untap": Phrase("duel.phase.untap"), "upkeep": Phrase("duel.phase.upkeep"),
    "draw": Phrase("duel.phase.draw"), "main": Phrase("duel.phase.main"),
    "discard": Phrase("duel.phase.discard"), "end": Phrase("duel.phase.end"),
    "heal": Phrase("duel.phase.heal"),
}
"""Each phase of a turn, named."""

COLOURS: dict[str, Phrase] = {
    "W": Phrase("duel.colour.white"), "U": Phrase("duel.colour.blue"),
    "B": Phrase("duel.colour.black"), "R": Phrase("duel.colour.red"),
    "G": Phrase("duel.colour.green"),
}
"""Each colour's name (what a card becomes, whose mana is added)."""

MANA: dict[str, Phrase] = {
    "W": Phrase("duel.mana.white"), "U": Phrase("duel.mana.blue"),
    "B": Phrase("duel.mana.black"), "R": Phrase("duel.mana.red"),
    "G": Phrase("duel.mana.green"),
}
"""Mana of each colour, as a noun (``{amount} red mana``)."""

KEYWORDS: dict[str, Phrase] = {
    "flying": Phrase("duel.keyword.flying"),
    "first strike": Phrase("duel.keyword.first_strike"),
    "trample": Phrase("duel.keyword.trample"),
    "banding": Phrase("duel.keyword.banding"),
    "landwalk:plains": Phrase("duel.keyword.plainswalk"),
    "landwalk:island": Phrase("duel.keyword.islandwalk"),
    "landwalk:swamp": Phrase("duel.keyword.swampwalk"),
    "landwalk:mountain": Phrase("duel.keyword.mountainwalk"),
    "landwalk:forest": Phrase("duel.keyword.forestwalk"),
    "protection:W": Phrase("duel.keyword.protection_white"),
    "protection:U": Phrase("duel.keyword.protection_blue"),
    "protection:B": Phrase("duel.keyword.protection_black"),
    "protection:R": Phrase("duel.keyword.protection_red"),
    "protection:G": Phrase("duel.keyword.protection_green"),
}
"""Each keyword a creature may have or be given, in words."""

FINDS: dict[str, tuple[Phrase, Phrase]] = {
    "land": (Phrase("duel.find.land"), Phrase("duel.find.a_land")),
    "creature": (Phrase("duel.find.creature"), Phrase("duel.find.a_creature")),
    "artifact": (Phrase("duel.find.artifact"), Phrase("duel.find.an_artifact")),
    "enchantment": (Phrase("duel.find.enchantment"), Phrase("duel.find.an_enchantment")),
    "instant": (Phrase("duel.find.instant"), Phrase("duel.find.an_instant")),
    "sorcery": (Phrase("duel.find.sorcery"), Phrase("duel.find.a_sorcery")),
}
"""What a search looks for in a library: a card type, bare (``no land card``) and with
its article (``a land card``)."""


TYPES: dict[str, Phrase] = {
    "land": Phrase("duel.type.land"), "creature": Phrase("duel.type.creature"),
    "artifact": Phrase("duel.type.artifact"),
    "artifact creature": Phrase("duel.type.artifact_creature"),
    "enchantment": Phrase("duel.type.enchantment"),
    "enchant creature": Phrase("duel.type.enchant_creature"),
    "enchant artifact": Phrase("duel.type.enchant_artifact"),
    "enchant land": Phrase("duel.type.enchant_land"),
    "enchant enchantment": Phrase("duel.type.enchant_enchantment"),
    "sorcery": Phrase("duel.type.sorcery"), "instant": Phrase("duel.type.instant"),
    "interrupt": Phrase("duel.type.interrupt"),
}
"""Each card type, in words."""


def card_type(name: str) -> Words:
    """A card type in words (``enchant creature``); an unknown one as it is."""
    return TYPES.get(name, name)


def phase(name: str) -> Words:
    """A phase of the turn in words (an unknown one as it is: it is notation)."""
    return PHASES.get(name, name)


def colour(code: str | None) -> Words:
    """A colour's name (``R`` → red); an unknown code as it is."""
    return COLOURS.get(code or "", code or "")


def mana(code: str | None) -> Words:
    """Mana of a colour as a noun; an unknown code as it is."""
    return MANA.get(code or "", code or "")


def keyword(word: str | None) -> Words:
    """A keyword in words; an unknown one as it is."""
    return KEYWORDS.get(word or "", word or "")


def found(kind: str | None, *, article: bool = False) -> Words:
    """What a library search looks for, in words: ``land card`` (``article``: ``a land
    card``); a type without words of its own as it is."""
    words = FINDS.get(kind or "")
    if words is None:  # no card in the set searches for another type
        return kind or ""
    return words[1] if article else words[0]


def card_named(name: str) -> Named:
    """A card's name as an argument of a phrase: the one place a card's name enters
    the words (said in the reader's language by the card set's words, where the words
    are made)."""
    return Named("cards", name)


def listed(items: Sequence[Words | Named], *, last: str = "comma") -> Words | Named:
    """Items in a list: ``A, B, C`` (``last="and"``: ``A, B and C``; ``"dot"``:
    ``A · B · C``; ``"semicolon"``: ``A; B; C``), as phrases so that each language
    joins them its own way."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    rest = listed(items[1:], last=last)
    if len(items) == 2 and last == "and":
        return Phrase("duel.list.and", first=items[0], last=rest)
    if last == "dot":
        return Phrase("duel.list.dot", first=items[0], rest=rest)
    if last == "semicolon":
        return Phrase("duel.list.semicolon", first=items[0], rest=rest)
    return Phrase("duel.list.comma", first=items[0], rest=rest)


def cards(names: Sequence[str], *, last: str = "comma") -> Words | Named:
    """Card names in a list (:func:`listed`)."""
    return listed([card_named(name) for name in names], last=last)
