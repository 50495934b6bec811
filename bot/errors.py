"""The refusals players and moderators can meet, as values.

Every one becomes a friendly ephemeral reply in one place (the Discord error
handler, or the local table's prompt). Rules errors (:mod:`rules.errors`) are
shown the same way.
"""

from __future__ import annotations


class CroupierError(Exception):
    """Base of the service's refusals; ``str(exc)`` is shown to the user."""


class NoMatchHere(CroupierError):
    """The channel has no lobby or match."""

    def __init__(self, what: str = "match") -> None:
        super().__init__(f"There is no {what} in this channel. Start one with /play.")


class UnknownMatch(CroupierError):
    """No such match on this server (``/match``)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"There is no match #{match_id} on this server. /history lists "
                         "recent ones.")


class ChannelBusy(CroupierError):
    """The channel already has a live match."""

    def __init__(self) -> None:
        super().__init__("This channel already has a game going. Use /table to see it, "
                         "or play in another channel or a thread.")


class NotSeated(CroupierError):
    """The user has no seat in this match."""

    def __init__(self, message: str = "You are not playing in this match.") -> None:
        super().__init__(message)


class AlreadySeated(CroupierError):
    """The user already has a seat."""

    def __init__(self) -> None:
        super().__init__("You are already seated at this table.")


class LobbyFull(CroupierError):
    """No seat is free."""


class WrongPhase(CroupierError):
    """The action does not fit the match's phase (lobby vs. playing)."""


class NotAllowed(CroupierError):
    """Only the host or a moderator may do that."""


class StaleChoice(CroupierError):
    """A button or menu from an earlier turn."""

    def __init__(self) -> None:
        super().__init__("That menu is from an earlier turn; the table has moved on. "
                         "Use the current table (or /hand).")


class MovedOn(CroupierError):
    """Another process moved the match first (docs/clusters.md): nothing was stored,
    and this process has caught up."""

    def __init__(self) -> None:
        super().__init__("The game moved on just as you chose, so your choice was not "
                         "made. Look at the table and choose again.")


class NotRecorded(CroupierError):
    """Storing a change failed; the match goes on from what is stored."""

    def __init__(self) -> None:
        super().__init__("I could not save that, so it did not happen. Please try again; "
                         "if it keeps failing, tell the server's moderators.")


class DiscordBusy(CroupierError):
    """Discord failed to take the new table for now (5xx, timeouts)."""

    def __init__(self) -> None:
        super().__init__("Discord did not take the table just now; nothing was opened. "
                         "Try again in a moment.")


class CannotPost(CroupierError):
    """The bot may not post or edit its table where it was asked to play."""

    def __init__(self, why: str = "") -> None:
        super().__init__("I can't post the table in this channel"
                         + (f" ({why})" if why else "")
                         + ". Check that I may view the channel, send messages, embed links "
                           "and attach files here; nothing was opened.")


class NoSuchPage(CroupierError):
    """A page past the last one was asked for (the first page is 1).

    >>> str(NoSuchPage("the leaderboard", 5, 1))
    'There is only 1 page of the leaderboard; page 5 does not exist.'
    """

    def __init__(self, what: str, page: int, pages: int) -> None:
        super().__init__(f"There {'is' if pages == 1 else 'are'} only {pages} "
                         f"page{'' if pages == 1 else 's'} of {what}; page {page} does not "
                         "exist.")
