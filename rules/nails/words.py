"""Hammer & Nails' words as phrases (rules.phrases): its pieces named for each deck
(nails and hammers, or ships and lasers) and colour, its mechanics, its decks, and lists
of phrases joined, so that every sentence the game says is a catalog key and arguments.

A piece is named by whole phrases ("a red nail", "no red ship", "3 red nails"), one key
per deck word and colour, so that a language whose article and adjective agree with the
noun (Portuguese: "um prego vermelho", "uma nave vermelha") says each one right.

>>> a_piece("ship", "red").key, pieces("nail", "green", 3)
('nails.piece_a.ship.red', Phrase(nails.piece_count.nail.green(count=3)))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.phrases import Phrase, Words

_PIECE: dict[tuple[str, str], Phrase] = {
    ("nail", "red"): Phrase("nails.piece.nail.red"),
    ("nail", "green"): Phrase("nails.piece.nail.green"),
    ("nail", "blue"): Phrase("nails.piece.nail.blue"),
    ("nail", "yellow"): Phrase("nails.piece.nail.yellow"),
    ("ship", "red"): Phrase("nails.piece.ship.red"),
    ("ship", "green"): Phrase("nails.piece.ship.green"),
    ("ship", "blue"): Phrase("nails.piece.ship.blue"),
    ("ship", "yellow"): Phrase("nails.piece.ship.yellow"),
}
_PIECE_A: dict[tuple[str, str], Phrase] = {
    ("nail", "red"): Phrase("nails.piece_a.nail.red"),
    ("nail", "green"): Phrase("nails.piece_a.nail.green"),
    ("nail", "blue"): Phrase("nails.piece_a.nail.blue"),
    ("nail", "yellow"): Phrase("nails.piece_a.nail.yellow"),
    ("ship", "red"): Phrase("nails.piece_a.ship.red"),
    ("ship", "green"): Phrase("nails.piece_a.ship.green"),
    ("ship", "blue"): Phrase("nails.piece_a.ship.blue"),
    ("ship", "yellow"): Phrase("nails.piece_a.ship.yellow"),
}
_PIECE_NO: dict[tuple[str, str], Phrase] = {
    ("nail", "red"): Phrase("nails.piece_no.nail.red"),
    ("nail", "green"): Phrase("nails.piece_no.nail.green"),
    ("nail", "blue"): Phrase("nails.piece_no.nail.blue"),
    ("nail", "yellow"): Phrase("nails.piece_no.nail.yellow"),
    ("ship", "red"): Phrase("nails.piece_no.ship.red"),
    ("ship", "green"): Phrase("nails.piece_no.ship.green"),
    ("ship", "blue"): Phrase("nails.piece_no.ship.blue"),
    ("ship", "yellow"): Phrase("nails.piece_no.ship.yellow"),
}
_PIECE_COUNT: dict[tuple[str, str], Callable[[int], Phrase]] = {
    ("nail", "red"): lambda n: Phrase("nails.piece_count.nail.red", count=n),
    ("nail", "green"): lambda n: Phrase("nails.piece_count.nail.green", count=n),
    ("nail", "blue"): lambda n: Phrase("nails.piece_count.nail.blue", count=n),
    ("nail", "yellow"): lambda n: Phrase("nails.piece_count.nail.yellow", count=n),
    ("ship", "red"): lambda n: Phrase("nails.piece_count.ship.red", count=n),
    ("ship", "green"): lambda n: Phrase("nails.piece_count.ship.green", count=n),
    ("ship", "blue"): lambda n: Phrase("nails.piece_count.ship.blue", count=n),
    ("ship", "yellow"): lambda n: Phrase("nails.piece_count.ship.yellow", count=n),
}

_A_KIND = {
    "nail": Phrase("nails.kind_a.nail"), "ship": Phrase("nails.kind_a.ship"),
    "hammer": Phrase("nails.kind_a.hammer"), "laser": Phrase("nails.kind_a.laser"),
    "blank": Phrase("nails.kind_a.blank"),
}
_KIND = {"hammer": Phrase("nails.kind.hammer"), "laser": Phrase("nails.kind.laser"),
         "blank": Phrase("nails.kind.blank")}
_KIND_COUNT: dict[str, Callable[[int], Phrase]] = {
    "hammer": lambda n: Phrase("nails.kind_count.hammer", count=n),
    "laser": lambda n: Phrase("nails.kind_count.laser", count=n),
    "blank": lambda n: Phrase("nails.kind_count.blank", count=n),
}
_NOUNS = {"nail": Phrase("nails.nouns.nail"), "ship": Phrase("nails.nouns.ship")}
_PENALTY: dict[str, Callable[[int], Phrase]] = {
    "nail": lambda n: Phrase("nails.penalty.nail", count=n),
    "ship": lambda n: Phrase("nails.penalty.ship", count=n),
}
_COLOUR = {"red": Phrase("nails.colour.red"), "green": Phrase("nails.colour.green"),
           "blue": Phrase("nails.colour.blue"), "yellow": Phrase("nails.colour.yellow")}
_DECK = {"workshop": Phrase("nails.deck.workshop"), "space": Phrase("nails.deck.space"),
         "workshop4": Phrase("nails.deck.workshop4")}
_SHORT = {
    "again": Phrase("nails.mechanic.again"), "remove": Phrase("nails.mechanic.remove"),
    "search": Phrase("nails.mechanic.search"), "draw2": Phrase("nails.mechanic.draw2"),
    "cover-green": Phrase("nails.mechanic.cover_green"),
    "cover-red": Phrase("nails.mechanic.cover_red"),
    "cover-blue": Phrase("nails.mechanic.cover_blue"),
    "cover-yellow": Phrase("nails.mechanic.cover_yellow"),
    "opp-discard": Phrase("nails.mechanic.opp_discard"),
    "discard": Phrase("nails.mechanic.discard"),
}
_LONG = {
    "again": Phrase("nails.mechanic_long.again"), "remove": Phrase("nails.mechanic_long.remove"),
    "search": Phrase("nails.mechanic_long.search"), "draw2": Phrase("nails.mechanic_long.draw2"),
    "null": Phrase("nails.mechanic_long.null"),
    "opp-discard": Phrase("nails.mechanic_long.opp_discard"),
    "discard": Phrase("nails.mechanic_long.discard"),
}
NULL = "Ø"
"""The Ø mechanic's sign, the same in every language."""


def piece(word: str, colour: str) -> Words:
    """A nail (ship) of ``colour``, bare: ``red nail``; ``word`` is the deck's nail word."""
    return _PIECE.get((word, colour)) or f"{colour} {word}"


def a_piece(word: str, colour: str) -> Words:
    """``a red nail``."""
    return _PIECE_A.get((word, colour)) or f"{colour} {word}"


def no_piece(word: str, colour: str) -> Words:
    """``no red nail``."""
    return _PIECE_NO.get((word, colour)) or f"{colour} {word}"


def pieces(word: str, colour: str, count: int) -> Words:
    """``1 red nail``, ``3 red nails``."""
    made = _PIECE_COUNT.get((word, colour))
    return made(count) if made else f"{count} {colour} {word}"


def a_kind(word: str) -> Words:
    """A zone's kind with its article, in the deck's words: ``a nail``, ``a laser``,
    ``a blank`` (``word``: ``nail``, ``ship``, ``hammer``, ``laser`` or ``blank``)."""
    return _A_KIND.get(word) or word


def kind(word: str) -> Words:
    """``hammer``, ``laser`` or ``blank``, bare."""
    return _KIND.get(word) or word


def kinds(word: str, count: int) -> Words:
    """``2 hammers``, ``1 blank``."""
    made = _KIND_COUNT.get(word)
    return made(count) if made else f"{count} {word}"


def nouns(word: str) -> Words:
    """The deck's nails in general: ``nails``, ``ships``."""
    return _NOUNS.get(word) or word


def penalty(word: str, count: int) -> Words:
    """``2 penalty nails``."""
    made = _PENALTY.get(word)
    return made(count) if made else f"{count} {word}"


def colour_name(colour: str) -> Words:
    """A colour on its own (a seat's or team's): ``red``."""
    return _COLOUR.get(colour) or colour


def deck_name(deck: str) -> Words:
    """A deck's name as people read it (the option's value stays ``workshop``)."""
    return _DECK.get(deck) or deck


def mechanic_name(mechanic: str) -> Words:
    """A mechanic's short name: ``Play Again``, ``Must Cover Red``; Ø is its sign."""
    if mechanic == "null":
        return NULL
    return _SHORT.get(mechanic) or mechanic


def mechanic_words(mechanic: str, word: str = "nail") -> Words:
    """A mechanic in full: ``Play Again (optional)``, ``Next player must cover a red
    nail`` (in the deck's words)."""
    if mechanic.startswith("cover-"):
        return Phrase("nails.mechanic_long.cover", nail=a_piece(word, mechanic[6:]))
    return _LONG.get(mechanic) or mechanic


def joined(items: Sequence[Words]) -> Words:
    """``a``, ``a and b``, ``a, b and c``.

    >>> joined(["Ada"]), joined(["Ada", "Bo"]).key
    ('Ada', 'nails.join.and')
    """
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Phrase("nails.join.and", first=listed(items[:-1]), last=items[-1])


def listed(items: Sequence[Words], sep: str = "comma") -> Words:
    """``a, b, c`` (``sep`` ``comma``), ``a · b · c`` (``dot``), ``a / b / c``
    (``slash``) or one a line (``line``)."""
    if not items:
        return ""
    made = items[-1]
    for item in reversed(items[:-1]):
        if sep == "line":
            made = Phrase("nails.join.line", first=item, rest=made)
        elif sep == "dot":
            made = Phrase("nails.join.dot", first=item, rest=made)
        elif sep == "slash":
            made = Phrase("nails.join.slash", first=item, rest=made)
        else:
            made = Phrase("nails.join.comma", first=item, rest=made)
    return made
