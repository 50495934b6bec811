"""The values the tournament service and its callers share: who is acting, a
tournament's settings, where a match is to be played, what is announced, and the
refusals. Generic: nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from bot.errors import CroupierError
from bot.i18n import Text, say
from bot.settings.service import MAX_TURN, MIN_TURN, Manager
from bot.tournaments.terms import label_said, players_words
from rules.phrases import Words
from rules.tournament.model import Standing
from rules.words import clip
from storage.tournaments import MOST_ENTRANTS, EntrantRow, PairingRow, TournamentRow

NAME_LENGTH = 100
"""The longest name of a tournament or of one of its match places: it names a
Discord thread or channel too, whose limit is the same
(:data:`bot.discord_parts.limits.CHANNEL_NAME`; tests/test_architecture.py keeps
them equal). The service knows no transport, so it keeps its own number."""

FORMATS = ("swiss", "single", "double", "round_robin", "pods")
"""The formats a tournament may have (:data:`rules.tournament.model.FormatName`)."""
TWO_SEAT_FORMATS = ("swiss", "single", "double", "round_robin")
TOP_CUTS = (0, 4, 8)
MOST_ROUNDS = 20
MOST_PLAYERS = MOST_ENTRANTS
"""Most entrants of a tournament, however they enter (storage keeps the cap)."""


class TournamentError(CroupierError):
    """A tournament action refused; its words (:func:`bot.errors.said`) are shown to
    the person, in their language."""


class NoTournament(TournamentError):
    """No such tournament on this server."""

    def __init__(self, tournament_id: int | None = None) -> None:
        super().__init__(Text("tournaments.error.no_such") if tournament_id is None
                         else Text("tournaments.error.no_tournament", id=tournament_id))


class NotOrganiser(TournamentError):
    """The person may not organise tournaments here."""

    def __init__(self) -> None:
        super().__init__(Text("tournaments.error.not_organiser"))


@dataclass(frozen=True)
class Member(Manager):
    """A person acting in a server: their right to manage it, and their roles (the
    organiser role is one of them, or not)."""

    guild_id: int = 0
    role_ids: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class TournamentSettings:
    """What the organiser sets when creating a tournament (stored as JSON)."""

    best_of: int = 1
    """Games per match of two: 1 or 3 (pods always play one)."""
    rounds: int | None = None
    """Rounds of Swiss or pods; ``None``: the format's own count."""
    top_cut: int = 0
    """After Swiss, single elimination of the top 4 or 8 (0: none)."""
    seeding: Literal["rating", "random"] = "rating"
    auto_next: bool = True
    """Start the next round once every match of this one has its result (otherwise
    the organiser does)."""
    rated: bool = True
    """Whether its games move ratings."""
    no_show_limit: int = 2
    """No-shows that drop a player."""
    pod_size: int | None = None
    """Seats per pod; ``None``: the game's usual table (at least 3)."""
    pod_points: tuple[int, ...] | None = None
    """Points by place within a pod; ``None``: the format's table."""
    third_place: bool = False
    """Single elimination (and a top cut): the semi-finals' losers play for third."""
    bracket_reset: bool = True
    """Double elimination: a grand final lost by the winners' side is played again."""
    use_threads: bool = True
    """Each match in a thread of the tournament's channel (else a channel of its own)."""
    max_players: int | None = None
    turn_seconds: int | None = None
    """Seconds a player has for each decision in the tournament's games (the round's
    deadline); ``None``: the server's deadline for the game."""

    @classmethod
    def parse(cls, given: Mapping[str, Any] | None) -> TournamentSettings:
        """Settings from what the organiser (or the store) gave; refused with
        :class:`TournamentError` naming the setting."""
        given = dict(given or {})
        unknown = set(given) - set(cls.__dataclass_fields__)
        if unknown:
            raise TournamentError(Text("tournaments.settings.unknown",
                                       names=", ".join(sorted(unknown))))
        if given.get("pod_points") is not None:
            given["pod_points"] = tuple(given["pod_points"])
        try:
            settings = cls(**given)
        except TypeError:
            raise TournamentError(Text("tournaments.settings.unreadable")) from None
        settings._check()
        return settings

    def _check(self) -> None:
        def whole(value: object, low: int, high: int) -> bool:
            return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

        problems: list[Text] = []
        if self.best_of not in (1, 3):
            problems.append(Text("tournaments.settings.best_of"))
        if self.rounds is not None and not whole(self.rounds, 1, MOST_ROUNDS):
            problems.append(Text("tournaments.settings.rounds", most=MOST_ROUNDS))
        if self.top_cut not in TOP_CUTS:
            problems.append(Text("tournaments.settings.top_cut"))
        if self.seeding not in ("rating", "random"):
            problems.append(Text("tournaments.settings.seeding"))
        if not whole(self.no_show_limit, 1, 10):
            problems.append(Text("tournaments.settings.no_show_limit"))
        if self.pod_size is not None and not whole(self.pod_size, 3, 16):
            problems.append(Text("tournaments.settings.pod_size"))
        if self.pod_points is not None and (
                not self.pod_points or not all(whole(p, 0, 100) for p in self.pod_points)
                or list(self.pod_points) != sorted(self.pod_points, reverse=True)):
            problems.append(Text("tournaments.settings.pod_points"))
        if self.turn_seconds is not None and not whole(self.turn_seconds, MIN_TURN,
                                                        MAX_TURN):
            problems.append(Text("tournaments.settings.turn_seconds", least=MIN_TURN,
                                 most=MAX_TURN))
        if self.max_players is not None and not whole(self.max_players, 2, MOST_PLAYERS):
            problems.append(Text("tournaments.settings.max_players", most=MOST_PLAYERS))
        for flag in ("auto_next", "rated", "third_place", "bracket_reset", "use_threads"):
            if not isinstance(getattr(self, flag), bool):
                problems.append(Text("tournaments.settings.flag", name=flag.replace("_", " ")))
        if problems:
            said = problems[-1]
            for problem in reversed(problems[:-1]):
                said = Text("tournaments.settings.more", first=problem, rest=said)
            raise TournamentError(Text("tournaments.settings.refused", problems=said))

    def stored(self) -> dict[str, Any]:
        """As the store keeps them (JSON)."""
        stored = asdict(self)
        if self.pod_points is not None:
            stored["pod_points"] = list(self.pod_points)
        return stored


class PlaceRefused(TournamentError):
    """Discord refused to make a pairing's place — the bot lacks a permission, or the
    server (or category) has no room for another thread or channel: ``str(exc)`` says
    which, in words (its ``text``), for the organiser; the round's tables then play in
    the tournament's channel, in turn."""


class PlaceFailed(TournamentError):
    """Discord failed to make a pairing's place for now (an error on its side, or no
    answer): ``str(exc)`` says so in words; the game is tried again with the
    tournament's next step, or by the organiser."""


class PlaceBusy(TournamentError):
    """A pairing's place holds another game (tables taking turns in the tournament's
    channel): its game opens when that one ends."""


@dataclass(frozen=True)
class MatchPlace:
    """Where a pairing's games are to be played: what the Discord layer's ``starter``
    is asked to make (a thread of the tournament's channel, or a channel)."""

    tournament: TournamentRow
    round: int
    table: int
    label: str
    """As stored (:func:`bot.tournaments.terms.label_code`)."""
    players: tuple[tuple[int, str], ...]
    """``(user id, name)`` in seat order."""
    use_threads: bool

    @property
    def title(self) -> str:
        """A name for the place, e.g. ``R2 · Ada vs Bo``, in the locale spoken.

        >>> from storage.tournaments import TournamentRow
        >>> MatchPlace(None, 2, 1, "", ((1, "Ada"), (2, "Bo")), True).title  # type: ignore
        'R2 · Ada vs Bo'
        """
        names = [name for _, name in self.players]
        joined = players_said(names)
        label = label_said(self.label)
        title = (say(Text("tournaments.place.title_label", round=self.round, label=label,
                          players=joined)) if label
                 else say(Text("tournaments.place.title", round=self.round, players=joined)))
        return clip(title, NAME_LENGTH)


Starter = Callable[[MatchPlace], Awaitable[int]]
"""Makes the place a pairing's games are played in and returns its channel id;
:class:`PlaceRefused` if Discord does not let the bot make it, :class:`PlaceFailed`
if it failed for now."""


@dataclass(frozen=True)
class HeldPlace:
    """A pairing's place to give back once its games are over."""

    tournament: TournamentRow
    place_id: int
    thread: bool
    """A thread (archived, its history kept) rather than a channel (deleted)."""


Retirer = Callable[[HeldPlace], Awaitable[None]]
"""Gives a place back: archives the thread, or deletes the channel (a place already
gone is given back)."""


def players_said(names: Sequence[str]) -> str:
    """A table's players in words: two as ``Ada vs Bo``, more as a list.

    >>> players_said(["Ada", "Bo"]), players_said(["Ada", "Bo", "Cy"])
    ('Ada vs Bo', 'Ada, Bo, Cy')
    """
    return say(players_words(names))


@dataclass(frozen=True)
class Room:
    """How many more places Discord lets the bot make for a tournament now, and the
    cap that says so, in words (e.g. "Discord allows 50 channels in a category")."""

    free: int
    where: Words
    """What has the room, e.g. "the server" or "the category Events"."""
    cap: Words


RoomCheck = Callable[[TournamentRow, bool], Awaitable[Room | None]]
"""The room for a tournament's places (threads if the flag says so, else channels);
``None`` when it cannot be told."""


def unseen_place(tournament_id: int, round_no: int, table: int) -> int:
    """The place of a table of computer players only: nobody needs to watch it, so it
    is no Discord channel (an id below 0, one per pairing, that the Discord transport
    shows nowhere).

    >>> unseen_place(3, 2, 17)
    -3002017
    """
    return -(tournament_id * 1_000_000 + round_no * 1_000 + table)


def is_unseen(place: int | None) -> bool:
    """Whether a pairing's place is no Discord channel (:func:`unseen_place`).

    >>> is_unseen(-3002017), is_unseen(1234), is_unseen(None)
    (True, False, False)
    """
    return place is not None and place < 0

NoticeKind = Literal["round", "round_done", "finished", "cancelled", "game_failed",
                     "game_closed", "no_place", "table_here"]


@dataclass(frozen=True)
class StandingLine:
    """A line of the standings with the entrant's name."""

    standing: Standing
    name: str


@dataclass(frozen=True)
class Standings:
    """A tournament's standings after its last result."""

    tournament: TournamentRow
    round: int
    final: bool
    lines: tuple[StandingLine, ...]


@dataclass(frozen=True)
class RoundView:
    """A round's pairings, with everyone's names."""

    tournament: TournamentRow
    round: int
    pairings: tuple[PairingRow, ...]
    names: Mapping[int, str]

    def seat_names(self, pairing: PairingRow) -> list[str]:
        """The names in a pairing's seats."""
        return [self.names.get(user, "?") for user in pairing.seats]


@dataclass(frozen=True)
class Notice:
    """Something to post in the tournament's channel: a round's pairings (pinging its
    players), a round done (waiting for the organiser), the final standings, a
    cancel, a game that could not be started."""

    kind: NoticeKind
    tournament: TournamentRow
    round: int
    text: Words
    """Its words, made in the channel's language when posted."""
    mentions: tuple[int, ...] = ()
    pairings: RoundView | None = None
    standings: Standings | None = None


Announcer = Callable[[Notice], Awaitable[None]]
"""Posts a :class:`Notice` (the Discord layer's; raising means "not posted")."""


async def announce_nothing(notice: Notice) -> None:
    """The announcer of a service nobody watches (tests, tools)."""


def is_computer(user_id: int) -> bool:
    """Whether a tournament entrant is a computer player (their ids are negative;
    a person's are Discord's, positive).

    >>> is_computer(-2), is_computer(1234)
    (True, False)
    """
    return user_id < 0


def is_person(user_id: int) -> bool:
    """Whether an entrant is a person with a Discord account (computer entrants have
    negative ids, and 0 is the bot): only people are mentioned, pinged or added to a
    thread.

    >>> is_person(1234), is_person(-3), is_person(0)
    (True, False, False)
    """
    return user_id > 0


def names_of(entrants: Sequence[EntrantRow]) -> dict[int, str]:
    """Each entrant's name by user id."""
    return {e.user_id: e.name for e in entrants}
