"""Arcane Duel's automatic passing, turned on or off by a player in the middle of a
duel (the spec: "players may turn automatic passing off"), from their DM's button in
Discord or with ``autopass on|off`` at the local table.

It is a setting of the seat, kept in the seat's stored setup (``auto_pass``, which the
rules read when a duel is dealt or rebuilt), not a choice in the log: the log already
holds every pass, made for the seat or by it, so a match still replays from its game,
options, seed, setups and choices to the same position whenever the setting changed,
and a restart carries the latest setting on. Only the player is told: the table and
the other players see what they saw before (a pass made at once, as ever).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import CroupierError, NoMatchHere, NotSeated, WrongPhase
from bot.i18n import Text, tr
from storage.models import SeatRow

if TYPE_CHECKING:
    from bot.matches.live import LiveMatch
    from bot.matches.service import MatchService

GAME = "duel"
SETUP_KEY = "auto_pass"
VALUES = {"on": True, "off": False, "yes": True, "no": False, "true": True,
          "false": False}
"""How the setting is typed at the local table."""


class AutoPassError(CroupierError):
    """Automatic passing can't be set now; nothing changed."""


def autopass_value(typed: str) -> bool:
    """``on`` or ``off`` (also yes/no, true/false) as typed.

    >>> autopass_value(" OFF "), autopass_value("on")
    (False, True)
    """
    value = VALUES.get(typed.strip().lower())
    if value is None:
        raise AutoPassError(Text("error.autopass.value", value=repr(typed.strip()[:20])))
    return value


def auto_passing(match: LiveMatch, seat: int) -> bool:
    """Whether ``seat``'s windows where it can play nothing pass by themselves now."""
    assert match.state is not None
    return bool(match.state.auto_passing(seat))  # type: ignore[attr-defined]


def said(on: bool) -> str:
    """What the player is told of their setting, in the locale spoken."""
    return tr("duel.autopass.on") if on else tr("duel.autopass.off")


async def set_auto_pass(service: MatchService, match: LiveMatch, user_id: int,
                        on: bool) -> bool:
    """Turn automatic passing on or off for ``user_id``'s seat in ``match``, stored with
    the seat before the live duel changes; whether it changed. A pass it makes due
    now (turned on while asked in a window with nothing to play) is made at once."""
    async with match.lock:
        if match.info.name != GAME:
            raise AutoPassError(Text("error.autopass.other_game", game=match.info.title))
        if match.row.status == "lobby":
            raise WrongPhase(Text("error.autopass.not_started"))
        if not match.playing or match.state is None:
            raise NoMatchHere()
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        if auto_passing(match, seat.seat) == on:
            return False
        seats = [SeatRow(**{**vars(s), "setup": {**(s.setup or {}), SETUP_KEY: on}})
                 if s.seat == seat.seat else s for s in match.seats]
        await service.moving(match, lambda version: service.store.matches.set_seats(
            match.id, seats, version=version))
        # The live state is never changed in place (views may hold it): a copy is
        # changed and swapped in, as every move is.
        state = match.state.copy()
        state.set_auto_pass(seat.seat, on)  # type: ignore[attr-defined]
        match.row.seats = seats
        match.state = state
    # The driver makes the forced pass now due, if any, and shows what changed.
    service._schedule(match)
    return True
