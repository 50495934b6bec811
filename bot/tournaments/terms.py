"""A tournament in words, for every side that shows one (Discord's messages and posts,
the web's pages): its format, its status, the standings' columns and tiebreakers, a
pairing's label and result, a game's outcome, a computer entrant's name. One place, so
that the tournament message and the tournament page never call the same thing by two
names. The words come from the ``tournaments`` catalog, in the locale being spoken
(:func:`bot.i18n.speaking`). Generic: nothing here names a game; nothing here knows a
transport.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.i18n import Text, current, say, tr, trn
from bot.i18n.tournaments import label_code, label_words, raw_template
from bot.matches.results import ordinal
from rules.phrases import Words

__all__ = ["COMPUTER", "FORMAT_WORDS", "HEAD_NAMES", "HEAD_WORDS", "OUTCOME_WORDS",
           "STANDING_HEADS", "STATUS_WORDS", "TIEBREAKERS", "Spoken", "entrant_name",
           "entrant_words", "format_words", "head_words", "label_code", "label_said",
           "label_words", "ordinal", "outcome_words", "pairing_result", "players_words",
           "status_words"]


class Spoken(Mapping[str, str]):
    """A mapping whose values are words made when read, in the locale being spoken
    (a page's template or a picture reads it inside its reader's ``speaking``)."""

    def __init__(self, words: Mapping[str, Text]) -> None:
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        return self._words[key].in_locale(None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


FORMAT_WORDS: Mapping[str, str] = Spoken({
    "swiss": Text("tournaments.format.swiss"),
    "single": Text("tournaments.format.single"),
    "double": Text("tournaments.format.double"),
    "round_robin": Text("tournaments.format.round_robin"),
    "pods": Text("tournaments.format.pods"),
})
"""Each format in words, as people say it."""

STATUS_WORDS: Mapping[str, str] = Spoken({
    "created": Text("tournaments.status.created"),
    "open": Text("tournaments.status.open"),
    "checkin": Text("tournaments.status.checkin"),
    "running": Text("tournaments.status.running"),
    "finished": Text("tournaments.status.finished"),
    "cancelled": Text("tournaments.status.cancelled"),
})
"""Each status in words, on the tournament message and page."""

STANDING_HEADS = ("#", "Player", "Pts", "W-L-D", "OMW%", "GW%", "OGW%")
"""The standings' columns, in order (pictures, text and the web): ids, shown in words
by :data:`HEAD_WORDS`."""

HEAD_WORDS: Mapping[str, str] = Spoken({
    "#": Text("tournaments.head.rank"),
    "Player": Text("tournaments.head.player"),
    "Pts": Text("tournaments.head.points"),
    "W-L-D": Text("tournaments.head.record"),
    "OMW%": Text("tournaments.head.omw"),
    "GW%": Text("tournaments.head.gw"),
    "OGW%": Text("tournaments.head.ogw"),
})
"""Each standings column's header as shown."""

HEAD_NAMES: Mapping[str, str] = Spoken({
    "#": Text("tournaments.head.rank_long"),
    "Player": Text("tournaments.head.player_long"),
    "Pts": Text("tournaments.head.points_long"),
    "W-L-D": Text("tournaments.head.record_long"),
    "OMW%": Text("tournaments.head.omw_long"),
    "GW%": Text("tournaments.head.gw_long"),
    "OGW%": Text("tournaments.head.ogw_long"),
})
"""Each standings header spelt out (a screen reader's and a newcomer's reading)."""

TIEBREAKERS = ("OMW%", "GW%", "OGW%")
"""The Swiss tiebreakers after match points, in the order they rank (the spec's
"Swiss arithmetic"); a tie none of them breaks is drawn at random with the
tournament's seed, and the line says so."""

OUTCOME_WORDS: Mapping[str, str] = Spoken({
    "counted": Text("tournaments.outcome.counted"),
    "ignored": Text("tournaments.outcome.ignored"),
    "cancelled": Text("tournaments.outcome.cancelled"),
    "abandoned": Text("tournaments.outcome.abandoned"),
})
"""A game's outcome for its pairing, in words (a game without one is in play)."""


def format_words(format: str) -> str:
    """A format in words.

    >>> format_words("round_robin"), format_words("swiss")
    ('round robin', 'Swiss')
    """
    return FORMAT_WORDS[format] if format in FORMAT_WORDS else format.replace("_", " ")


def status_words(status: str) -> str:
    """A status in words.

    >>> status_words("running")
    'under way'
    """
    return STATUS_WORDS.get(status, status)


def outcome_words(outcome: str | None) -> str:
    """A game's outcome in words ("in play" while it has none).

    >>> outcome_words("counted"), outcome_words(None)
    ('counted', 'in play')
    """
    if outcome == "counted":
        return _fast("tournaments.outcome.counted")
    if outcome == "ignored":
        return _fast("tournaments.outcome.ignored")
    if outcome == "cancelled":
        return _fast("tournaments.outcome.cancelled")
    if outcome == "abandoned":
        return _fast("tournaments.outcome.abandoned")
    return _fast("tournaments.outcome.in_play")


def head_words(head: str) -> str:
    """A standings column's header as shown (:data:`STANDING_HEADS`).

    >>> head_words("W-L-D")
    'W-L-D'
    """
    return HEAD_WORDS.get(head, head)


COMPUTER = "Computer "
"""How the store names a computer entrant: ``Computer N`` (its entrant id is -N)."""


def entrant_words(user_id: int, name: str) -> Words:
    """An entrant's name as words made later (:func:`entrant_name`, in the reader's
    locale when said)."""
    if user_id < 0 and name == f"{COMPUTER}{-user_id}":
        return Text("tournaments.computer", number=-user_id)
    return name


def players_words(names: Sequence[Words]) -> Words:
    """A table's players as words: two as ``Ada vs Bo``, more as a list.

    >>> say(players_words(["Ada", "Bo"]), "en"), say(players_words(["Ada", "Bo", "Cy"]), "en")
    ('Ada vs Bo', 'Ada, Bo, Cy')
    """
    if len(names) == 2:
        return Text("tournaments.versus", first=names[0], second=names[1])
    if not names:
        return ""
    said = names[-1]
    for name in reversed(names[:-1]):
        said = Text("tournaments.comma", first=name, rest=said)
    return said


def entrant_name(user_id: int, name: str) -> str:
    """An entrant's name as shown: a computer entrant's stored ``Computer N`` in the
    words of the locale spoken; anyone else's as it is.

    >>> entrant_name(-3, "Computer 3"), entrant_name(12, "Computer 3")
    ('Computer 3', 'Computer 3')
    """
    if user_id < 0 and name == f"{COMPUTER}{-user_id}":
        return tr("tournaments.computer", number=-user_id)
    return name


def label_said(stored: str) -> str:
    """A stored label in the words of the locale spoken ("" for none)."""
    return _label_said(stored, current()) if stored else ""


@lru_cache(maxsize=4096)
def _label_said(stored: str, locale: str) -> str:
    # Every table of a round has a label (a pod's, a bracket's): read once per locale.
    return say(label_words(stored), locale)


def _score(games: Sequence[int]) -> str:
    return "-".join(map(str, games))


def pairing_result(pairing: Any, names: Sequence[str]) -> str:
    """Where a pairing (a :class:`storage.tournaments.PairingRow`) stands, in words:
    its result (the winner and the games score, a draw, both losing, places at a pod),
    or ``playing`` / ``waiting``.

    >>> from types import SimpleNamespace as S
    >>> done = dict(done=True, is_bye=False, both_lose=False, drawn_games=0,
    ...             decided_by="game", in_play=False)
    >>> pairing_result(S(**done, places=(2, 1), games=(1, 2)), ["Ada", "Bo"])
    'Bo wins 2-1'
    >>> pairing_result(S(**done, places=(1, 1), games=(0, 0)), ["Ada", "Bo"])
    'draw 0-0'
    >>> pairing_result(S(**done, places=(2, 3, 1), games=(0, 0, 1)), ["Ada", "Bo", "Cy"])
    '1st Cy, 2nd Ada, 3rd Bo'
    >>> pairing_result(S(done=False, in_play=True), ["Ada", "Bo"])
    'playing'
    """
    if not pairing.done:
        return _fast("tournaments.result.playing") if pairing.in_play \
            else _fast("tournaments.result.waiting")
    if pairing.is_bye:
        return _fast("tournaments.result.bye")
    places = pairing.places or ()
    two = len(names) == 2 and len(places) == 2
    if pairing.both_lose:
        said = _fast("tournaments.result.both_lose", score=_score(pairing.games))
    elif two and places[0] == places[1]:
        said = _fast("tournaments.result.draw", score=_score(pairing.games))
    elif two:
        won = 0 if places[0] < places[1] else 1  # the winner's games first
        said = _fast("tournaments.result.wins", name=names[won],
                     score=f"{pairing.games[won]}-{pairing.games[1 - won]}")
    else:
        said = ", ".join(_fast("tournaments.result.placed", place=ordinal(place), name=name)
                         for place, name in sorted(zip(places, names, strict=False)))
    if pairing.drawn_games:
        said = trn("tournaments.result.with_drawn", pairing.drawn_games, result=said)
    if pairing.decided_by == "organiser":
        said = _fast("tournaments.result.by_organiser", result=said)
    return said


def _fast(key: str, /, **args: object) -> str:
    """:func:`~bot.i18n.tr` for words a page makes thousands of times (a pairing's
    result, a game's outcome): the catalog's text is looked up once per locale, then
    filled by ``str.format``, which never reads a value as a template."""
    return raw_template(key, current()).format(**args)
