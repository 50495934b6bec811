"""A tournament in words, for every side that shows one (Discord's messages and posts,
the web's pages): its format, its status, the standings' columns and tiebreakers, a
pairing's result and a game's outcome. One place, so that the tournament message and
the tournament page never call the same thing by two names (issue 33 moves these to
catalogs). Generic: nothing here names a game; nothing here knows a transport.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.words import ordinal

FORMAT_WORDS: Mapping[str, str] = {"swiss": "Swiss", "single": "single elimination",
                                   "double": "double elimination",
                                   "round_robin": "round robin", "pods": "pods"}
"""Each format in words, as people say it."""

STATUS_WORDS: Mapping[str, str] = {
    "created": "created — registration not open yet",
    "open": "registration open",
    "checkin": "check-in open: entrants, check in",
    "running": "under way",
    "finished": "finished",
    "cancelled": "cancelled",
}
"""Each status in words, on the tournament message and page."""

STANDING_HEADS = ("#", "Player", "Pts", "W-L-D", "OMW%", "GW%", "OGW%")
"""The standings' column headers, in order (pictures, text and the web)."""

HEAD_NAMES: Mapping[str, str] = {
    "#": "rank",
    "Player": "player",
    "Pts": "match points",
    "W-L-D": "matches won, lost and drawn",
    "OMW%": "opponents' match-win percentage",
    "GW%": "game-win percentage",
    "OGW%": "opponents' game-win percentage",
}
"""Each standings header spelt out (a screen reader's and a newcomer's reading)."""

TIEBREAKERS = ("OMW%", "GW%", "OGW%")
"""The Swiss tiebreakers after match points, in the order they rank (the spec's
"Swiss arithmetic"); a tie none of them breaks is drawn at random with the
tournament's seed, and the line says so."""

OUTCOME_WORDS: Mapping[str, str] = {"counted": "counted", "ignored": "ignored",
                                    "cancelled": "cancelled", "abandoned": "abandoned"}
"""A game's outcome for its pairing, in words (a game without one is in play)."""

IN_PLAY = "in play"
"""A game of a pairing that has no outcome yet."""


def format_words(format: str) -> str:
    """A format in words.

    >>> format_words("round_robin"), format_words("swiss")
    ('round robin', 'Swiss')
    """
    return FORMAT_WORDS.get(format, format.replace("_", " "))


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
    return OUTCOME_WORDS.get(outcome or "", IN_PLAY)


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
        return "playing" if pairing.in_play else "waiting"
    if pairing.is_bye:
        return "bye"
    drawn = f" ({pairing.drawn_games} drawn)" if pairing.drawn_games else ""
    places = pairing.places or ()
    two = len(names) == 2 and len(places) == 2
    if pairing.both_lose:
        said = f"both lose {_score(pairing.games)}{drawn}"
    elif two and places[0] == places[1]:
        said = f"draw {_score(pairing.games)}{drawn}"
    elif two:
        won = 0 if places[0] < places[1] else 1  # the winner's games first
        said = f"{names[won]} wins {pairing.games[won]}-{pairing.games[1 - won]}{drawn}"
    else:
        said = ", ".join(f"{ordinal(place)} {name}"
                         for place, name in sorted(zip(places, names, strict=False)))
    return said + (" (entered by the organiser)" if pairing.decided_by == "organiser"
                   else "")
