"""A tournament game counted for its pairing inside the write that records (or
closes) its match: :func:`record_game_in` and :func:`game_closed_in`, called by
:mod:`storage.matches` in its own transactions, so that a bot stopping just after a
result finds the pairing up to date. Also the arithmetic of a pairing's result
(:func:`decide_pairing`) and the small SQL helpers the tournament writes share
(:mod:`storage.tournaments`).

Decided here, where the spec is silent:

* A two-seat pairing is best of ``settings["best_of"]`` (1 or 3): decided once a seat
  has won more than half of them, or once that many games were played (a drawn game
  counts as played: 1-1 with a draw is a drawn match, 1-0 with two draws a win). Places
  then follow games won, equal games a shared place. A pairing of three or more seats
  (a pod) is decided by its one game's places.
* A seat that was **absent** from a game — it forfeited on time (strikes) without ever
  choosing anything itself — loses the whole pairing at once, and its entrant's
  ``no_shows`` grows by one; at ``settings["no_show_limit"]`` (default 2) the entrant
  is dropped. Both are audit rows by the bot (``by_user`` 0).
* An entrant who dropped (or was disqualified) during their pairing loses it when its
  game ends, or at once if no game of it is being played: seats that left take the
  last places, the others keep their order. When every seat left, everyone loses.
  Games won stay as played.
* A game cancelled or abandoned counts nothing: its pairing waits for the organiser,
  who reports a result or has the game played again.
* A game that ends after its pairing was decided (the organiser reported it, say) is
  kept in history and counts nothing for the tournament (outcome ``ignored``).
* Games are matched to seats by person (a best-of-three's games swap seats).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from storage.models import SeatResult

GameOutcome = Literal["counted", "ignored", "cancelled", "abandoned"]
"""A game's outcome for its pairing (``None`` while it is played)."""
BOT = 0
"""``by_user`` of audit rows the bot writes itself (no-shows and the drops they bring)."""
DEFAULT_BEST_OF = 1
DEFAULT_NO_SHOW_LIMIT = 2


# -- SQL helpers the tournament writes share -----------------------------------------
_stamp: tuple[int, str] = (0, "")


def now_iso() -> str:
    """The time in ISO form, to the second."""
    global _stamp
    second = int(time.time())
    if _stamp[0] != second:
        _stamp = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds"))
    return _stamp[1]


def _best_of(settings: Mapping[str, Any]) -> int:
    return int(settings.get("best_of") or DEFAULT_BEST_OF)


def seats_of(pairing: sqlite3.Row) -> list[int]:
    return [int(user) for user in json.loads(pairing["seats"])]


def tournament_in(conn: sqlite3.Connection, tid: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()


def pairing_in(conn: sqlite3.Connection, tid: int, round_no: int,
               table: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM tournament_pairings WHERE tournament_id = ?"
                        " AND round = ? AND table_no = ?", (tid, round_no, table)).fetchone()



def audit_in(conn: sqlite3.Connection, tid: int, round_no: int, table: int | None,
             user: int | None, action: str, by_user: int, old: Mapping[str, Any] | None,
             new: Mapping[str, Any], why: str) -> None:
    conn.execute("INSERT INTO tournament_audit (tournament_id, round, table_no, user_id,"
                 " action, by_user, at, old, new, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (tid, round_no, table, user, action, by_user, now_iso(),
                  None if old is None else json.dumps(old, sort_keys=True),
                  json.dumps(new, sort_keys=True), why))


# -- arithmetic shared by the writes ------------------------------------------------------
def competition_places(scores: Sequence[int]) -> tuple[int, ...]:
    """Places from scores, most first, equal scores sharing a place.

    >>> competition_places([2, 1])
    (1, 2)
    >>> competition_places([1, 1])
    (1, 1)
    """
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)


def decide_pairing(games: Sequence[int], drawn: int, best_of: int,
                   game_places: Sequence[int] | None = None,
                   out: Sequence[bool] = ()) -> tuple[tuple[int, ...], bool] | None:
    """A pairing's places and whether everyone lost, once decided; ``None`` while it
    goes on. ``game_places`` are its last game's places (they decide a pod);
    ``out[i]`` marks a seat that left (absent, dropped): it loses at once.

    >>> decide_pairing([1, 0], 0, 3) is None
    True
    >>> decide_pairing([2, 1], 0, 3)
    ((1, 2), False)
    >>> decide_pairing([1, 1], 1, 3)
    ((1, 1), False)
    >>> decide_pairing([1, 0], 0, 3, out=[False, True])
    ((1, 2), False)
    >>> decide_pairing([0, 0, 0], 0, 1, [2, 1, 3], out=[False, False, True])
    ((2, 1, 3), False)
    """
    seats = len(games)
    out = list(out) or [False] * seats
    if seats > 2:
        if game_places is None:
            return None
        base = tuple(game_places)
    else:
        needed = best_of // 2 + 1
        if not any(out) and max(games) < needed and sum(games) + drawn < best_of:
            return None
        base = competition_places(games)
    if not any(out):
        return base, False
    if all(out):
        return (seats,) * seats, True
    present = [i for i in range(seats) if not out[i]]
    # The seats still there keep their order among themselves; the others share last.
    ranked = competition_places([-base[i] for i in present])
    places = [len(present) + 1] * seats
    for i, place in zip(present, ranked, strict=True):
        places[i] = place
    return tuple(places), False


# -- in other writes' transactions ----------------------------------------------------------
def record_game_in(conn: sqlite3.Connection, match_id: int,
                   seats: Sequence[SeatResult]) -> None:
    """Inside the write that records a match's result: if the match is a tournament
    game, add it to its pairing (and decide the pairing when it is decided). Never
    raises over the tournament's bookkeeping: the match's result is stored whatever."""
    link = conn.execute("SELECT tournament_id, round, table_no, outcome FROM tournament_games"
                        " WHERE match_id = ?", (match_id,)).fetchone()
    if link is None or link["outcome"] is not None:
        return
    tournament = tournament_in(conn, link["tournament_id"])
    pairing = pairing_in(conn, link["tournament_id"], link["round"], link["table_no"])
    places = {s.user_id: s.place for s in seats if s.user_id is not None}
    if (tournament is None or pairing is None or tournament["status"] != "running"
            or pairing["status"] == "done" or not set(seats_of(pairing)) <= places.keys()):
        _set_outcome(conn, match_id, "ignored")
        return
    _count_game(conn, tournament, pairing, match_id, places)
    _set_outcome(conn, match_id, "counted")


def game_closed_in(conn: sqlite3.Connection, match_id: int, status: str) -> None:
    """Inside the write that cancels or abandons a match: a tournament game closed so
    counts nothing (its pairing waits for the organiser)."""
    if status in ("cancelled", "abandoned"):
        conn.execute("UPDATE tournament_games SET outcome = ? WHERE match_id = ?"
                     " AND outcome IS NULL", (status, match_id))


def _count_game(conn: sqlite3.Connection, tournament: sqlite3.Row, pairing: sqlite3.Row,
                match_id: int, places: Mapping[int, int]) -> None:
    tid, round_no, table = pairing["tournament_id"], pairing["round"], pairing["table_no"]
    settings = json.loads(tournament["settings"])
    seats = seats_of(pairing)
    absent = _absent(conn, match_id, seats)
    for user in absent:
        _no_show(conn, tid, round_no, table, user, settings)
    left = left_in(conn, tid, seats)
    game_places = [places[user] for user in seats]
    games = list(json.loads(pairing["games"]))
    drawn = pairing["drawn_games"]
    if len(set(game_places)) == 1:
        drawn += 1
    else:
        for i, place in enumerate(game_places):
            if place == 1:
                games[i] += 1
    out = [user in absent or user in left for user in seats]
    decided = decide_pairing(games, drawn, _best_of(settings), game_places, out)
    how = "absence" if absent else "drop" if any(out) else "play"
    write_result_in(conn, tid, round_no, table, games, drawn, decided, how)


def _absent(conn: sqlite3.Connection, match_id: int, seats: Sequence[int]) -> set[int]:
    """The entrants who forfeited this game on time without ever choosing themselves."""
    rows = conn.execute(
        "SELECT s.user_id, s.state,"
        " SUM(CASE c.source WHEN 'player' THEN 1 ELSE 0 END) AS acted,"
        " SUM(CASE c.source WHEN 'auto' THEN 1 ELSE 0 END) AS timed_out FROM match_seats s"
        " LEFT JOIN match_choices c ON c.match_id = s.match_id AND c.seat = s.seat"
        " WHERE s.match_id = ? GROUP BY s.match_id, s.seat", (match_id,)).fetchall()
    return {row["user_id"] for row in rows
            if row["user_id"] in seats and row["state"] == "forfeited"
            and not row["acted"] and row["timed_out"]}


def left_in(conn: sqlite3.Connection, tid: int, seats: Sequence[int]) -> set[int]:
    """Those of ``seats`` who dropped or were disqualified."""
    rows = conn.execute(
        f"SELECT user_id FROM tournament_entrants WHERE tournament_id = ?"
        f" AND dropped_after IS NOT NULL AND user_id IN ({', '.join('?' * len(seats))})",
        (tid, *seats)).fetchall()
    return {row["user_id"] for row in rows}


def _no_show(conn: sqlite3.Connection, tid: int, round_no: int, table: int, user: int,
             settings: Mapping[str, Any]) -> None:
    """Count a no-show (an audit row by the bot), dropping the entrant at the limit."""
    entrant = conn.execute("SELECT no_shows, dropped_after FROM tournament_entrants"
                           " WHERE tournament_id = ? AND user_id = ?", (tid, user)).fetchone()
    if entrant is None:
        return
    count = entrant["no_shows"] + 1
    conn.execute("UPDATE tournament_entrants SET no_shows = ? WHERE tournament_id = ?"
                 " AND user_id = ?", (count, tid, user))
    audit_in(conn, tid, round_no, table, user, "no_show", BOT, {"no_shows": count - 1},
             {"no_shows": count}, "absent: forfeited on time without playing")
    limit = int(settings.get("no_show_limit") or DEFAULT_NO_SHOW_LIMIT)
    if count >= limit and entrant["dropped_after"] is None:
        conn.execute("UPDATE tournament_entrants SET dropped_after = ? WHERE tournament_id = ?"
                     " AND user_id = ?", (round_no, tid, user))
        audit_in(conn, tid, round_no, None, user, "drop", BOT, {"dropped_after": None},
                 {"dropped_after": round_no}, f"{count} no-shows (the limit is {limit})")


def write_result_in(conn: sqlite3.Connection, tid: int, round_no: int, table: int,
                    games: Sequence[int], drawn: int,
                    decided: tuple[tuple[int, ...], bool] | None, how: str) -> None:
    if decided is None:
        conn.execute("UPDATE tournament_pairings SET games = ?, drawn_games = ?"
                     " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                     (json.dumps(list(games)), drawn, tid, round_no, table))
        return
    places, both_lose = decided
    conn.execute("UPDATE tournament_pairings SET games = ?, drawn_games = ?, places = ?,"
                 " both_lose = ?, status = 'done', decided_by = ? WHERE tournament_id = ?"
                 " AND round = ? AND table_no = ?",
                 (json.dumps(list(games)), drawn, json.dumps(list(places)), int(both_lose),
                  how, tid, round_no, table))


def _set_outcome(conn: sqlite3.Connection, match_id: int, outcome: GameOutcome) -> None:
    conn.execute("UPDATE tournament_games SET outcome = ? WHERE match_id = ?"
                 " AND outcome IS NULL", (outcome, match_id))


