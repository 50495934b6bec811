"""Deck lists as plain text, the form players share decks in.

One card a line, its count first: ``4 Ashpeak`` (also ``4x Ashpeak``, and a
bare name is one copy). Blank lines are skipped, ``#`` starts a comment, and a
line that is only a code fence (```` ``` ````) is skipped too, so a list copied
out of a Discord code block reads as it is. Names are matched without regard
to case or spacing. Reading refuses, naming the line, anything it cannot
read, and suggests the nearest card names for a misspelt one.

>>> deck = parse_decklist("# my deck\\n4x kindlewhip\\n\\n17 ashpeak\\nGrim Ledger")
>>> sorted(deck.items())
[('Ashpeak', 17), ('Grim Ledger', 1), ('Kindlewhip', 4)]
>>> print(render_decklist(deck))
1 Grim Ledger
4 Kindlewhip
17 Ashpeak
>>> parse_decklist(render_decklist(deck)) == deck
True
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping
from functools import cache

from rules.duel.cards import card_set
from rules.errors import BadOptions, shown
from rules.phrases import Named, Phrase, Words

MAX_TEXT = 10_000
"""Most characters a deck list may have."""
MAX_COUNT = 99
"""Most copies one line may ask for."""
MAX_CARDS = 250
"""Most cards a deck list may hold in all (``rules.duel.MAX_DECK``)."""
MAX_PROBLEMS = 5
"""Most faulty lines one refusal describes; the rest are only counted."""
SUGGESTIONS = 3
"""Most card names suggested for a misspelt one."""

_LINE = re.compile(r"([0-9]+)(?:\s*[x×])?\s+(.+)", re.IGNORECASE)
"""A count and a name. ``[0-9]``, not ``\\d``: ``\\d`` matches every script's
digits and ``int`` reads them, but a count is written with ASCII digits."""
_FENCE = re.compile(r"```[A-Za-z]*")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "´": "'"})
"""Phones and word processors curl apostrophes; card names use the straight one."""


@cache
def _by_key() -> Mapping[str, str]:
    return {_key(name): name for name in card_set()}


def _key(name: str) -> str:
    """A name as lookups compare it: case folded, spaces collapsed."""
    return " ".join(name.translate(_APOSTROPHES).split()).casefold()


def card_named(text: str) -> str | None:
    """The card whose name ``text`` is, ignoring case, spacing and curled
    apostrophes; ``None`` when there is none.

    >>> card_named("  grim   LEDGER "), card_named("wayfarer’s cairn"), card_named("Dragon")
    ('Grim Ledger', "Wayfarer's Cairn", None)
    """
    return _by_key().get(_key(text))


def nearest_cards(text: str, limit: int = SUGGESTIONS) -> list[str]:
    """Up to ``limit`` card names closest to ``text``, closest first (none
    when nothing is close).

    >>> nearest_cards("Kindlewip")
    ['Kindlewhip']
    >>> nearest_cards("zzzzzzzz")
    []
    """
    key = _key(text)
    if len(key) > 3 * max(map(len, card_set())):
        return []  # nothing is close to a paragraph, and matching it is slow
    keys = _by_key()
    return [keys[k] for k in difflib.get_close_matches(key, list(keys), n=limit)]


def parse_decklist(text: str) -> Counter[str]:
    """The cards a deck list asks for, by name, counts summed over lines.

    :class:`BadOptions` names every faulty line (up to :data:`MAX_PROBLEMS`),
    or the limit broken: at most :data:`MAX_TEXT` characters,
    :data:`MAX_CARDS` cards, and 1 to :data:`MAX_COUNT` on a line.

    >>> parse_decklist("2 Kindlewhip\\n2 kindlewhip")
    Counter({'Kindlewhip': 4})
    >>> parse_decklist("4 Kindlewip\\n0 Ashpeak")
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: collections.decklist.problems(first=Phrase(collections.decklist.line(line=1, problem=Phrase(collections.decklist.no_card_near(card="'Kindlewip'", near=Named(domain='cards', name='Kindlewhip'))))), rest=Phrase(collections.decklist.line(line=2, problem=Phrase(collections.decklist.bad_count(most=99, typed="'0'")))))
    >>> parse_decklist("٤ Kindlewhip")
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: collections.decklist.line(line=1, problem=Phrase(collections.decklist.ascii_digits(typed="'٤'")))
    """  # noqa: E501 (a doctest's expected line is as long as the message)
    if not isinstance(text, str):
        raise BadOptions(Phrase("collections.decklist.not_text"))
    if len(text) > MAX_TEXT:
        raise BadOptions(Phrase("collections.decklist.too_long", most=MAX_TEXT, given=len(text)))
    cards: Counter[str] = Counter()
    problems: list[Words] = []
    faulty = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line or _FENCE.fullmatch(line):
            continue
        try:
            name, count = _read_line(line, detailed=faulty < MAX_PROBLEMS)
        except BadOptions as exc:
            faulty += 1
            if len(problems) < MAX_PROBLEMS:
                problems.append(Phrase("collections.decklist.line", line=number,
                                       problem=exc.text))
            continue
        cards[name] += count
    if problems:
        more = faulty - len(problems)
        if more:
            problems.append(Phrase("collections.decklist.more", count=more))
        raise BadOptions(_semicolons(problems))
    total = sum(cards.values())
    if total > MAX_CARDS:
        raise BadOptions(Phrase("collections.decklist.too_many", most=MAX_CARDS, given=total))
    return cards


def _semicolons(parts: list[Words]) -> Words:
    """Problems one after another, separated by semicolons."""
    if len(parts) == 1:
        return parts[0]
    return Phrase("collections.decklist.problems", first=parts[0], rest=_semicolons(parts[1:]))


def _did_you_mean(typed: object, near: list[str]) -> Phrase:
    """There is no card ``typed``, with the nearest names if any."""
    if not near:
        return Phrase("collections.decklist.no_card", card=shown(typed))
    named: Words | Named = Named("cards", near[-1])
    for name in reversed(near[:-1]):
        named = Phrase("collections.decklist.or", first=Named("cards", name), rest=named)
    return Phrase("collections.decklist.no_card_near", card=shown(typed), near=named)


def _read_line(line: str, detailed: bool) -> tuple[str, int]:
    """One stripped, non-empty line's card and count; :class:`BadOptions` says
    what is wrong (with suggestions only when ``detailed``: they cost a
    difflib search each, and only the first few problems are shown)."""
    found = _LINE.fullmatch(line)
    if found is not None:
        digits, name = found[1], found[2]
        significant = digits.lstrip("0")
        # Checked before int(): a thousands-digit count would make int() slow
        # or refuse (the int max-str-digits limit) instead of a clear message.
        if not significant or len(significant) > len(str(MAX_COUNT)) \
                or int(significant) > MAX_COUNT:
            raise BadOptions(Phrase("collections.decklist.bad_count", most=MAX_COUNT,
                                    typed=shown(digits)))
        count = int(significant)
    else:
        first = line.split(maxsplit=1)[0]
        if any(c.isnumeric() and not c.isascii() for c in first):
            raise BadOptions(Phrase("collections.decklist.ascii_digits", typed=shown(first)))
        if first[0] in "+-.0123456789":
            if first.rstrip("xX×").isdigit() and first == line:
                raise BadOptions(Phrase("collections.decklist.no_name", typed=shown(line)))
            raise BadOptions(Phrase("collections.decklist.bad_count", most=MAX_COUNT,
                                    typed=shown(first)))
        name, count = line, 1
    known = card_named(name)
    if known is None:
        raise BadOptions(_did_you_mean(name, nearest_cards(name) if detailed else []))
    return known, count


def _is_land(name: str) -> bool:
    data = card_set().get(name)
    return data is not None and data.type == "land"


def render_decklist(cards: Mapping[str, int]) -> str:
    """``cards`` as a deck list :func:`parse_decklist` reads back: one line a
    card, ``count name``, spells by name and then lands by name. A count over
    :data:`MAX_COUNT` takes several lines; counts below 1 are left out.

    >>> print(render_decklist({"Ashpeak": 120, "Kindlewhip": 0, "Grim Ledger": 2}))
    2 Grim Ledger
    99 Ashpeak
    21 Ashpeak
    """
    lines: list[str] = []
    for name in sorted(cards, key=lambda n: (_is_land(n), n)):
        left = cards[name]
        while left > 0:
            lines.append(f"{min(left, MAX_COUNT)} {name}")
            left -= MAX_COUNT
    return "\n".join(lines)


def is_free(name: str) -> bool:
    """Whether anyone may put any number of ``name`` in a deck without owning
    it: the basic lands.

    >>> is_free("Ashpeak"), is_free("Kindlewhip"), is_free("No such card")
    (True, False, False)
    """
    data = card_set().get(name)
    return data is not None and data.basic is not None


def shortfall(deck: Mapping[str, int], owned: Mapping[str, int]) -> dict[str, int]:
    """The copies ``deck`` asks for beyond those ``owned`` (the caller counts
    only copies free to use: locked ones left out), by card name, sorted by
    name; basic lands are never short. Empty when the deck can be played.

    >>> shortfall({"Kindlewhip": 4, "Grim Ledger": 1, "Ashpeak": 17}, {"Kindlewhip": 3})
    {'Grim Ledger': 1, 'Kindlewhip': 1}
    """
    short = {name: wanted - owned.get(name, 0) for name, wanted in deck.items()
             if not is_free(name)}
    return {name: short[name] for name in sorted(short) if short[name] > 0}


def check_deck(deck: Mapping[str, int]) -> tuple[str, ...]:
    """The deck's cards, one name a copy in the order :func:`render_decklist`
    writes them, once :class:`BadOptions` has had its say: every card is in
    the set and the deck has from ``MIN_DECK`` (40) to ``MAX_DECK`` cards.
    Ownership is :func:`shortfall`'s business.

    >>> len(check_deck({"Kindlewhip": 23, "Ashpeak": 17}))
    40
    >>> check_deck({"Kindlewhip": 4, "Ashpeak": 17})
    Traceback (most recent call last):
    ...
    rules.errors.BadOptions: collections.decklist.too_few(least=40, given=21)
    """
    # Imported here: rules.duel's __init__ imports the engine, and if it ever
    # imports this module too, a module-level import would meet it half made.
    from rules.duel import MAX_DECK, MIN_DECK

    known = card_set()
    unknown = sorted((name for name in deck if name not in known), key=str)
    if unknown:
        raise BadOptions(_did_you_mean(
            unknown[0], nearest_cards(unknown[0]) if isinstance(unknown[0], str) else []))
    for name, count in deck.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BadOptions(Phrase("collections.decklist.whole", card=Named("cards", name),
                                    typed=shown(count)))
    total = sum(deck.values())
    if total < MIN_DECK:
        raise BadOptions(Phrase("collections.decklist.too_few", least=MIN_DECK, given=total))
    if total > MAX_DECK:
        raise BadOptions(Phrase("collections.decklist.too_big", most=MAX_DECK, given=total))
    return tuple(name for name in sorted(deck, key=lambda n: (_is_land(n), n))
                 for _ in range(deck[name]))
