"""The rules core's exception tree.

Every error the rules raise is a :class:`ValueError`, so callers that only care
about "this input was refused" can catch one type; callers that want to say
*why* can catch the subclasses. Messages name the offending input, because they
are shown to players as they are.

>>> issubclass(NotYourTurn, RulesError) and issubclass(RulesError, ValueError)
True
"""

from __future__ import annotations

from rules.phrases import Words

SHOWN = 40
"""Most characters of a player's input that a message repeats."""


def shown(value: object, limit: int = SHOWN) -> str:
    """A player's input as a message repeats it: quoted, and shortened to
    ``limit`` characters, so a message stays short whatever was typed.

    >>> shown("C4")
    "'C4'"
    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
    >>> len(shown(10 ** 100))
    40
    """
    from rules.words import clip  # (words imports nothing of this module)

    return clip(repr(value), limit)


class RulesError(ValueError):
    """Base of every error the rules core raises. Its words are a
    :class:`~rules.phrases.Phrase` (``bot.i18n`` says them in each reader's language;
    ``str()`` is the key and arguments), or plain text for input that is no words.

    >>> from rules.phrases import Phrase
    >>> error = IllegalChoice(Phrase("rules.error.occupied", cell="C4"))
    >>> error.text.key, str(error)
    ('rules.error.occupied', "rules.error.occupied(cell='C4')")
    """

    def __init__(self, text: Words = "") -> None:
        self.text = text
        super().__init__(str(text))

    def __reduce__(self) -> tuple[object, ...]:
        return (_restored, (type(self), self.text), self.__dict__)


def _restored(cls: type[RulesError], text: Words) -> RulesError:
    made = cls.__new__(cls)
    RulesError.__init__(made, text)
    return made


class MalformedChoice(RulesError):
    """The choice could not be read at all (bad notation, unknown cell, wrong type)."""


class IllegalChoice(RulesError):
    """The choice is well formed but the rules forbid it now."""


class NotYourTurn(RulesError):
    """The seat has no pending decision."""


class GameOver(NotYourTurn):
    """The game has ended; nothing more may be chosen."""


class BadOptions(RulesError):
    """Options for a new game are out of range or unknown."""
