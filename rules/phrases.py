"""Words as data: what the rules say (an event, a prompt, why a choice is refused) as a
catalog key and its arguments, never as a sentence (docs/i18n.md).

The rules know no language: :class:`Phrase` is a key and arguments, and ``bot.i18n``
makes the words in each reader's language. A seat named in a phrase is a :class:`Seat`,
filled with the seat's name when the words are made, so names stay data.

>>> lays = Phrase("eclipse.event.lays", who=Seat(0), cell="C4")
>>> lays.key, dict(lays.args)
('eclipse.event.lays', {'who': Seat(seat=0), 'cell': 'C4'})
>>> str(lays)
"eclipse.event.lays(who=Seat(seat=0), cell='C4')"
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    """A seat named in a phrase: its player's name, filled in when the phrase is made."""

    seat: int


@dataclass(frozen=True)
class Named:
    """A piece of a game's data named in a phrase (a card, by the name the rules know
    it by): said in the reader's language by the namer ``bot.i18n`` has for its
    ``domain``, else as it is."""

    domain: str
    name: str


@dataclass(frozen=True, init=False)
class Phrase:
    """A catalog key, its arguments and, for a plural entry, the count (also the
    ``{count}`` placeholder). An argument may be another :class:`Phrase`, a
    :class:`Seat`, a :class:`Named`, a number or plain text (shown as it is, never read
    as a template).

    >>> Phrase("nails.cards", count=2) == Phrase("nails.cards", count=2)
    True
    """

    key: str
    count: int | None
    args: tuple[tuple[str, object], ...]

    def __init__(self, key: str, /, *, count: int | None = None, **args: object) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "args", tuple(args.items()))

    def __str__(self) -> str:
        """The key and arguments (for logs and tests: the words are made in ``bot``)."""
        shown = [f"count={self.count!r}"] if self.count is not None else []
        shown += [f"{name}={value!r}" for name, value in self.args]
        return f"{self.key}({', '.join(shown)})"

    def __repr__(self) -> str:
        return f"Phrase({self!s})"


Words = str | Phrase
"""What a rule says: a phrase, or plain text that is no words (notation, a name)."""
