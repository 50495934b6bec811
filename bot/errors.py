"""The refusals players and moderators can meet, as values.

Every one becomes a friendly ephemeral reply in one place (the Discord error
handler, or the local table's prompt). Rules errors (:mod:`rules.errors`) are
shown the same way. A refusal carries its words as a key and arguments
(:class:`bot.i18n.Text`), so each reader gets them in their own language; ``str()``
is the English text (logs, the local table).
"""

from __future__ import annotations

from typing import TypeVar

from bot.i18n import Phrase, Text, say

E = TypeVar("E", bound=BaseException)


class CroupierError(Exception):
    """Base of the service's refusals; ``str(exc)`` is its English text, and
    :func:`said` its text in a reader's language. A refusal made from a plain
    string is shown as it is, in every language (words not yet in a catalog)."""

    def __init__(self, text: str | Text = "") -> None:
        self.text = text
        super().__init__(text.english() if isinstance(text, Text) else text)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its class, words and attributes, whatever its own ``__init__``
        takes (a refusal may cross to another process).

        >>> import pickle
        >>> said(pickle.loads(pickle.dumps(NoSuchPage("x", 3, 1))), "en")
        'There is only 1 page of x; page 3 does not exist.'
        """
        return (_restored, (type(self), self.text), self.__dict__)


def _restored(cls: type[CroupierError], text: str | Text) -> CroupierError:
    made = cls.__new__(cls)
    CroupierError.__init__(made, text)
    return made


def keyed(error: type[E], text: Text) -> E:
    """An exception of any class (a rules error raised by the service, say) whose
    words are ``text``: its ``str()`` is the English, :func:`said` reads the rest.

    >>> from rules.errors import NotYourTurn
    >>> said(keyed(NotYourTurn, Text("error.not_your_turn")), "pt_BR")
    'Não é a sua vez.'
    """
    made = error(text.english())
    made.text = text  # type: ignore[attr-defined]
    return made


def said(error: BaseException, locale: str | None) -> str:
    """What ``error`` says to a reader of ``locale``: its words from the catalog when it
    carries them as a :class:`~bot.i18n.Text`, else its own (English) string.

    >>> said(AlreadySeated(), "pt_BR"), said(AlreadySeated(), "en")
    ('Você já tem um lugar nesta mesa.', 'You are already seated at this table.')
    >>> said(NotAllowed("{not a template}"), "pt_BR")
    '{not a template}'
    """
    text = getattr(error, "text", None)
    return say(text, locale) if isinstance(text, Phrase) else str(error)


class NoMatchHere(CroupierError):
    """The channel has no lobby or match."""

    def __init__(self) -> None:
        super().__init__(Text("error.no_match_here"))


class UnknownMatch(CroupierError):
    """No such match on this server (``/match``)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(Text("error.unknown_match", match_id=match_id))


class ChannelBusy(CroupierError):
    """The channel already has a live match."""

    def __init__(self) -> None:
        super().__init__(Text("error.channel_busy"))


class NotSeated(CroupierError):
    """The user has no seat in this match."""

    def __init__(self, text: str | Text | None = None) -> None:
        super().__init__(Text("error.not_seated") if text is None else text)


class AlreadySeated(CroupierError):
    """The user already has a seat."""

    def __init__(self) -> None:
        super().__init__(Text("error.already_seated"))


class LobbyFull(CroupierError):
    """No seat is free."""


class WrongPhase(CroupierError):
    """The action does not fit the match's phase (lobby vs. playing)."""


class NotAllowed(CroupierError):
    """Only the host or a moderator may do that."""


class StaleChoice(CroupierError):
    """A button or menu from an earlier turn."""

    def __init__(self) -> None:
        super().__init__(Text("error.stale_choice"))


class MovedOn(CroupierError):
    """Another process moved the match first (docs/clusters.md): nothing was stored,
    and this process has caught up."""

    def __init__(self) -> None:
        super().__init__(Text("error.moved_on"))


class NotRecorded(CroupierError):
    """Storing a change failed; the match goes on from what is stored."""

    def __init__(self) -> None:
        super().__init__(Text("error.not_recorded"))


class DiscordBusy(CroupierError):
    """Discord failed to take the new table for now (5xx, timeouts)."""

    def __init__(self) -> None:
        super().__init__(Text("error.discord_busy"))


class CannotPost(CroupierError):
    """The bot may not post or edit its table where it was asked to play; ``why``
    (words of their own) says what Discord refused."""

    def __init__(self, why: str | Text = "") -> None:
        super().__init__(Text("error.cannot_post_because", why=why) if why
                         else Text("error.cannot_post"))


class NoSuchPage(CroupierError):
    """A page past the last one was asked for (the first page is 1); ``what`` names
    the pages' list.

    >>> str(NoSuchPage("the leaderboard", 5, 1))
    'There is only 1 page of the leaderboard; page 5 does not exist.'
    """

    def __init__(self, what: str | Text, page: int, pages: int) -> None:
        super().__init__(Text("error.no_such_page", count=pages, what=what, page=page))
