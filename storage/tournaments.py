"""Tournaments: their entrants, rounds of pairings, the games each pairing played and
an append-only audit (migration 009; the spec: tournaments.md).

Rules this module keeps:

* **One write per change.** Every change is one write (a picklable ``work(conn)`` run by
  the writer process in its transaction) that re-checks the tournament's status and
  raises a :class:`TournamentRefusal` (plain, one message: it pickles) when the change
  does not fit; then nothing of it is stored.
* **A game counts in the transaction that records it.** Each game of a pairing is an
  ordinary match, linked to its pairing in ``tournament_games`` before it starts
  (:meth:`TournamentRepository.link_game`). :func:`record_game_in`, called by
  :mod:`storage.matches` in the write that records a match's result, adds the game to
  its pairing and decides the pairing when the game decides it; a bot that stops just
  after a result finds the pairing up to date. :func:`game_closed_in`, called in the
  write that cancels or abandons a match, marks the game closed and counts nothing.
* **What the formats read is kept whole.** A pairing keeps its seats (entrant ids:
  Discord user ids), games won per seat, drawn games and places, as
  :class:`rules.tournament.model.Result` reads them; everything else (standings, the
  next round) is worked out again from these and the tournament's seed.

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
* A game cancelled or abandoned counts nothing: its pairing waits for the organiser,
  who reports a result or has the game played again.
* A game that ends after its pairing was decided (the organiser reported it, say) is
  kept in history and counts nothing for the tournament (outcome ``ignored``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from storage.db import Database
from storage.errors import StorageError
from storage.models import SeatResult

TournamentStatus = Literal["created", "open", "checkin", "running", "finished", "cancelled"]
PairingStatus = Literal["pending", "playing", "done"]
Stage = Literal["main", "cut"]
GameOutcome = Literal["counted", "ignored", "cancelled", "abandoned"]
BEFORE_START: tuple[TournamentStatus, ...] = ("created", "open", "checkin")
FINAL: tuple[TournamentStatus, ...] = ("finished", "cancelled")
BOT = 0
"""``by_user`` of audit rows the bot writes itself (no-shows and the drops they bring)."""
DEFAULT_BEST_OF = 1
DEFAULT_NO_SHOW_LIMIT = 2
BYE_GAMES = 2
"""A bye is a match won 2–0 (the spec's Swiss arithmetic)."""


# -- refusals: plain exceptions with one message, so they pickle across the writer pipe --
class TournamentRefusal(StorageError):
    """A tournament change refused; nothing of it is stored."""


class NoSuchTournament(TournamentRefusal):
    """No tournament has that id."""


class WrongStatus(TournamentRefusal):
    """The change does not fit the tournament's status (registration closed, not started…)."""


class AlreadyEntered(TournamentRefusal):
    """The person is already an entrant."""


class NotEntered(TournamentRefusal):
    """The person is not an entrant."""


class Full(TournamentRefusal):
    """The tournament has as many entrants as it takes."""


class EntrantsChanged(TournamentRefusal):
    """The entrants changed since the round was worked out; work it out again."""


class RoundNotDone(TournamentRefusal):
    """A pairing of the current round has no result yet."""


class NoSuchPairing(TournamentRefusal):
    """No pairing has that round and table."""


class PairingClosed(TournamentRefusal):
    """The pairing already has its result, or a game of it is being played."""


class AlreadyDropped(TournamentRefusal):
    """The entrant has already dropped."""


class TooLate(TournamentRefusal):
    """A result that later rounds were paired from can no longer change."""


# -- plain values ------------------------------------------------------------------------
@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    name: str
    game: str
    format: str
    options: Mapping[str, Any]
    settings: Mapping[str, Any]
    organiser_id: int
    status: TournamentStatus
    seed: int
    round: int
    cut_after: int | None
    announced_round: int
    announced_done: int
    """The last round posted as complete (waiting for the organiser)."""
    final_announced: bool
    created_at: str
    started_at: str | None
    finished_at: str | None

    @property
    def live(self) -> bool:
        """Neither finished nor cancelled."""
        return self.status not in FINAL


@dataclass(frozen=True)
class EntrantRow:
    """A person in a tournament."""

    tournament_id: int
    user_id: int
    name: str
    seed: int | None
    cut_seed: int | None
    checked_in: bool
    dropped_after: int | None
    disqualified: bool
    no_shows: int
    final_rank: int | None
    joined_at: str

    @property
    def dropped(self) -> bool:
        """Dropped or disqualified: never paired again."""
        return self.dropped_after is not None


@dataclass(frozen=True)
class PairingRow:
    """One match of a round, with its result so far."""

    tournament_id: int
    round: int
    table: int
    stage: Stage
    seats: tuple[int, ...]
    label: str
    status: PairingStatus
    match_id: int | None
    """The current (or last) game's match."""
    thread_id: int | None
    games: tuple[int, ...]
    drawn_games: int
    places: tuple[int, ...] | None
    both_lose: bool
    decided_by: str | None
    games_linked: int
    """How many games were opened for it (cancelled ones too)."""
    game_outcome: GameOutcome | None
    """The current game's outcome; ``None`` while it is played (or if there is none)."""

    @property
    def is_bye(self) -> bool:
        """One seat: no opponent this round."""
        return len(self.seats) == 1

    @property
    def done(self) -> bool:
        """It has its result."""
        return self.status == "done"

    @property
    def in_play(self) -> bool:
        """A game of it is being played now."""
        return self.match_id is not None and self.game_outcome is None

    @property
    def waiting(self) -> bool:
        """Its last game was cancelled or abandoned: the organiser reports or replays."""
        return not self.done and self.game_outcome in ("cancelled", "abandoned")

    @property
    def needs_game(self) -> bool:
        """No result, no game being played, and nothing the organiser must decide
        first: the bot opens its next game."""
        return not self.done and not self.in_play and not self.waiting


@dataclass(frozen=True)
class GameLink:
    """A match played as a game of a pairing."""

    match_id: int
    tournament_id: int
    round: int
    table: int
    game_no: int
    outcome: GameOutcome | None
    rated: bool
    """The tournament's ``rated`` setting (its games move ratings only if set)."""


@dataclass(frozen=True)
class AuditRow:
    """One row of the append-only audit."""

    id: int
    tournament_id: int
    round: int
    table: int | None
    user_id: int | None
    action: str
    by_user: int
    at: str
    old: Mapping[str, Any] | None
    new: Mapping[str, Any]
    why: str


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
    tournament = _tournament(conn, link["tournament_id"])
    pairing = _pairing(conn, link["tournament_id"], link["round"], link["table_no"])
    places = {s.user_id: s.place for s in seats if s.user_id is not None}
    if (tournament is None or pairing is None or tournament["status"] != "running"
            or pairing["status"] == "done" or not set(_seats(pairing)) <= places.keys()):
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
    seats = _seats(pairing)
    absent = _absent(conn, match_id, seats)
    for user in absent:
        _no_show(conn, tid, round_no, table, user, settings)
    left = _left(conn, tid, seats)
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
    _write_result(conn, tid, round_no, table, games, drawn, decided, how)


def _absent(conn: sqlite3.Connection, match_id: int, seats: Sequence[int]) -> set[int]:
    """The entrants who forfeited this game on time without ever choosing themselves."""
    rows = conn.execute(
        "SELECT s.user_id, s.state, SUM(c.source = 'player') AS acted,"
        " SUM(c.source = 'auto') AS timed_out FROM match_seats s"
        " LEFT JOIN match_choices c ON c.match_id = s.match_id AND c.seat = s.seat"
        " WHERE s.match_id = ? GROUP BY s.seat", (match_id,)).fetchall()
    return {row["user_id"] for row in rows
            if row["user_id"] in seats and row["state"] == "forfeited"
            and not row["acted"] and row["timed_out"]}


def _left(conn: sqlite3.Connection, tid: int, seats: Sequence[int]) -> set[int]:
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
    _audit(conn, tid, round_no, table, user, "no_show", BOT, {"no_shows": count - 1},
           {"no_shows": count}, "absent: forfeited on time without playing")
    limit = int(settings.get("no_show_limit") or DEFAULT_NO_SHOW_LIMIT)
    if count >= limit and entrant["dropped_after"] is None:
        conn.execute("UPDATE tournament_entrants SET dropped_after = ? WHERE tournament_id = ?"
                     " AND user_id = ?", (round_no, tid, user))
        _audit(conn, tid, round_no, None, user, "drop", BOT, {"dropped_after": None},
               {"dropped_after": round_no}, f"{count} no-shows (the limit is {limit})")


def _write_result(conn: sqlite3.Connection, tid: int, round_no: int, table: int,
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


# -- small helpers of the writes -----------------------------------------------------------
_stamp: tuple[int, str] = (0, "")


def _now() -> str:
    """The time in ISO form, to the second."""
    global _stamp
    second = int(time.time())
    if _stamp[0] != second:
        _stamp = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds"))
    return _stamp[1]


def _best_of(settings: Mapping[str, Any]) -> int:
    return int(settings.get("best_of") or DEFAULT_BEST_OF)


def _seats(pairing: sqlite3.Row) -> list[int]:
    return [int(user) for user in json.loads(pairing["seats"])]


def _tournament(conn: sqlite3.Connection, tid: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()


def _pairing(conn: sqlite3.Connection, tid: int, round_no: int,
             table: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM tournament_pairings WHERE tournament_id = ?"
                        " AND round = ? AND table_no = ?", (tid, round_no, table)).fetchone()


def _require(conn: sqlite3.Connection, tid: int,
             statuses: Sequence[TournamentStatus], doing: str) -> sqlite3.Row:
    """The tournament, if its status is one of ``statuses``; refused otherwise."""
    row = _tournament(conn, tid)
    if row is None:
        raise NoSuchTournament(f"There is no tournament #{tid}.")
    if row["status"] not in statuses:
        raise WrongStatus(f"Tournament #{tid} is {_status_words(row['status'])}; "
                          f"it cannot {doing} now.")
    return row


def _status_words(status: str) -> str:
    return {"created": "not open for registration yet", "open": "open for registration",
            "checkin": "in check-in", "running": "under way", "finished": "finished",
            "cancelled": "cancelled"}.get(status, status)


def _entrant(conn: sqlite3.Connection, tid: int, user: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM tournament_entrants WHERE tournament_id = ?"
                       " AND user_id = ?", (tid, user)).fetchone()
    if row is None:
        raise NotEntered("That person is not in this tournament.")
    return row


def _current_pairing_of(conn: sqlite3.Connection, tid: int, round_no: int,
                        user: int) -> sqlite3.Row | None:
    """``user``'s pairing in ``round_no``, if they have one."""
    for row in conn.execute("SELECT * FROM tournament_pairings WHERE tournament_id = ?"
                            " AND round = ?", (tid, round_no)):
        if user in _seats(row):
            return row
    return None


def _game_in_play(conn: sqlite3.Connection, pairing: sqlite3.Row) -> int | None:
    """The match of the pairing's game being played now, if any."""
    if pairing["match_id"] is None:
        return None
    row = conn.execute("SELECT outcome FROM tournament_games WHERE match_id = ?",
                       (pairing["match_id"],)).fetchone()
    return pairing["match_id"] if row is not None and row["outcome"] is None else None


def _result_of(pairing: sqlite3.Row) -> dict[str, Any]:
    """A pairing's result as the audit keeps it."""
    return {"status": pairing["status"], "games": json.loads(pairing["games"]),
            "drawn_games": pairing["drawn_games"],
            "places": None if pairing["places"] is None else json.loads(pairing["places"]),
            "both_lose": bool(pairing["both_lose"]), "decided_by": pairing["decided_by"]}


def _audit(conn: sqlite3.Connection, tid: int, round_no: int, table: int | None,
           user: int | None, action: str, by_user: int, old: Mapping[str, Any] | None,
           new: Mapping[str, Any], why: str) -> None:
    conn.execute("INSERT INTO tournament_audit (tournament_id, round, table_no, user_id,"
                 " action, by_user, at, old, new, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (tid, round_no, table, user, action, by_user, _now(),
                  None if old is None else json.dumps(old, sort_keys=True),
                  json.dumps(new, sort_keys=True), why))


PairingPlan = tuple[int, tuple[int, ...], str]
"""``(table, seats, label)``: a pairing to insert."""


def _insert_round(conn: sqlite3.Connection, tid: int, round_no: int, stage: Stage,
                  pairings: Sequence[PairingPlan]) -> None:
    """A round's pairings, byes decided at once (a match won 2–0)."""
    for table, seats, label in pairings:
        bye = len(seats) == 1
        conn.execute(
            "INSERT INTO tournament_pairings (tournament_id, round, table_no, stage, seats,"
            " label, status, games, places, decided_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (tid, round_no, table, stage, json.dumps(list(seats)), label,
             "done" if bye else "pending",
             json.dumps([BYE_GAMES] if bye else [0] * len(seats)),
             json.dumps([1]) if bye else None, "bye" if bye else None))
    conn.execute("UPDATE tournaments SET round = ? WHERE id = ?", (round_no, tid))


def _require_round_done(conn: sqlite3.Connection, tid: int, round_no: int) -> None:
    row = conn.execute("SELECT COUNT(*) AS n FROM tournament_pairings WHERE tournament_id = ?"
                       " AND round = ? AND status <> 'done'", (tid, round_no)).fetchone()
    if row["n"]:
        raise RoundNotDone(f"Round {round_no} still has {row['n']} match"
                           f"{'es' if row['n'] != 1 else ''} without a result.")


# -- the writes ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Create:
    guild_id: int
    channel_id: int
    name: str
    game: str
    format: str
    options: str
    settings: str
    organiser_id: int
    seed: int

    def __call__(self, conn: sqlite3.Connection) -> int:
        cur = conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, name, game, format, options,"
            " settings, organiser_id, status, seed, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'created', ?, ?)",
            (self.guild_id, self.channel_id, self.name, self.game, self.format, self.options,
             self.settings, self.organiser_id, self.seed, _now()))
        return int(cur.lastrowid or 0)


@dataclass(frozen=True, slots=True)
class _SetStatus:
    tid: int
    allowed: tuple[TournamentStatus, ...]
    status: TournamentStatus
    doing: str

    def __call__(self, conn: sqlite3.Connection) -> None:
        _require(conn, self.tid, self.allowed, self.doing)
        conn.execute("UPDATE tournaments SET status = ? WHERE id = ?", (self.status, self.tid))


@dataclass(frozen=True, slots=True)
class _Join:
    tid: int
    user_id: int
    name: str
    allowed: tuple[TournamentStatus, ...]
    max_players: int | None

    def __call__(self, conn: sqlite3.Connection) -> None:
        row = _require(conn, self.tid, self.allowed, "take entrants")
        if conn.execute("SELECT 1 FROM tournament_entrants WHERE tournament_id = ?"
                        " AND user_id = ?", (self.tid, self.user_id)).fetchone():
            raise AlreadyEntered("Already in this tournament.")
        count = conn.execute("SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?",
                             (self.tid,)).fetchone()[0]
        if self.max_players is not None and count >= self.max_players:
            raise Full(f"The tournament is full ({self.max_players} players).")
        # Joining during check-in is being here: it checks in too.
        conn.execute("INSERT INTO tournament_entrants (tournament_id, user_id, name,"
                     " checked_in, joined_at) VALUES (?, ?, ?, ?, ?)",
                     (self.tid, self.user_id, self.name, int(row["status"] == "checkin"),
                      _now()))


@dataclass(frozen=True, slots=True)
class _Leave:
    tid: int
    user_id: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        _require(conn, self.tid, BEFORE_START, "lose entrants (drop instead)")
        _entrant(conn, self.tid, self.user_id)
        conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                     (self.tid, self.user_id))


@dataclass(frozen=True, slots=True)
class _CheckIn:
    tid: int
    user_id: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        _require(conn, self.tid, ("checkin",), "take check-ins")
        _entrant(conn, self.tid, self.user_id)
        conn.execute("UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ?"
                     " AND user_id = ?", (self.tid, self.user_id))


@dataclass(frozen=True, slots=True)
class _CloseCheckIn:
    """Check-in ends: who did not check in is removed; registration goes on."""

    tid: int

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        _require(conn, self.tid, ("checkin",), "close check-in")
        gone = [row[0] for row in conn.execute(
            "SELECT user_id FROM tournament_entrants WHERE tournament_id = ?"
            " AND checked_in = 0 ORDER BY user_id", (self.tid,))]
        conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = ?"
                     " AND checked_in = 0", (self.tid,))
        conn.execute("UPDATE tournaments SET status = 'open' WHERE id = ?", (self.tid,))
        return gone


@dataclass(frozen=True, slots=True)
class _Start:
    """Registration (or check-in) → running: those who did not check in removed, the
    seeds set and round 1 paired, as worked out from exactly these entrants."""

    tid: int
    seeds: tuple[tuple[int, int], ...]
    pairings: tuple[PairingPlan, ...]

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        row = _require(conn, self.tid, ("open", "checkin"), "start")
        gone: list[int] = []
        if row["status"] == "checkin":
            gone = [r[0] for r in conn.execute(
                "SELECT user_id FROM tournament_entrants WHERE tournament_id = ?"
                " AND checked_in = 0 ORDER BY user_id", (self.tid,))]
            conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = ?"
                         " AND checked_in = 0", (self.tid,))
        present = {r[0] for r in conn.execute(
            "SELECT user_id FROM tournament_entrants WHERE tournament_id = ?", (self.tid,))}
        if present != {user for user, _ in self.seeds}:
            raise EntrantsChanged("The entrants changed meanwhile; nothing started. "
                                  "Try again.")
        for user, seed in self.seeds:
            conn.execute("UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ?"
                         " AND user_id = ?", (seed, self.tid, user))
        conn.execute("UPDATE tournaments SET status = 'running', started_at = ? WHERE id = ?",
                     (_now(), self.tid))
        _insert_round(conn, self.tid, 1, "main", self.pairings)
        return gone


@dataclass(frozen=True, slots=True)
class _AddRound:
    """The next round (numbered as its format numbers it, after the current one), once
    every pairing of the current one has its result; with ``cut_seeds``, the first
    round of the top cut."""

    tid: int
    round: int
    stage: Stage
    pairings: tuple[PairingPlan, ...]
    cut_seeds: tuple[tuple[int, int], ...] = ()

    def __call__(self, conn: sqlite3.Connection) -> None:
        row = _require(conn, self.tid, ("running",), "pair a round")
        if self.round <= row["round"]:
            raise EntrantsChanged(f"Round {self.round} is paired already (round "
                                  f"{row['round']} is the current one).")
        _require_round_done(conn, self.tid, row["round"])
        if self.cut_seeds:
            conn.execute("UPDATE tournaments SET cut_after = ? WHERE id = ?",
                         (row["round"], self.tid))
            for user, seed in self.cut_seeds:
                conn.execute("UPDATE tournament_entrants SET cut_seed = ?"
                             " WHERE tournament_id = ? AND user_id = ?", (seed, self.tid, user))
        _insert_round(conn, self.tid, self.round, self.stage, self.pairings)


@dataclass(frozen=True, slots=True)
class _SetThread:
    tid: int
    round: int
    table: int
    thread_id: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE tournament_pairings SET thread_id = ? WHERE tournament_id = ?"
                     " AND round = ? AND table_no = ?",
                     (self.thread_id, self.tid, self.round, self.table))


@dataclass(frozen=True, slots=True)
class _LinkGame:
    """A new match is the pairing's next game (written before the match starts, so
    that its result always finds its pairing)."""

    tid: int
    round: int
    table: int
    game_no: int
    match_id: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        _require(conn, self.tid, ("running",), "start a game")
        pairing = _pairing(conn, self.tid, self.round, self.table)
        if pairing is None:
            raise NoSuchPairing(f"Round {self.round} has no table {self.table}.")
        if pairing["status"] == "done" or _game_in_play(conn, pairing) is not None:
            raise PairingClosed(f"Table {self.table} of round {self.round} already has its "
                                "result or a game being played.")
        linked = conn.execute("SELECT COUNT(*) FROM tournament_games WHERE tournament_id = ?"
                              " AND round = ? AND table_no = ?",
                              (self.tid, self.round, self.table)).fetchone()[0]
        if linked + 1 != self.game_no:
            raise PairingClosed(f"Game {self.game_no} of table {self.table} is not the next.")
        conn.execute("INSERT INTO tournament_games (match_id, tournament_id, round, table_no,"
                     " game_no) VALUES (?, ?, ?, ?, ?)",
                     (self.match_id, self.tid, self.round, self.table, self.game_no))
        conn.execute("UPDATE tournament_pairings SET match_id = ?, status = 'playing'"
                     " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                     (self.match_id, self.tid, self.round, self.table))


@dataclass(frozen=True, slots=True)
class _Report:
    """The organiser enters or corrects a pairing's result (an audit row); answers the
    match of a game of it being played, which the result makes moot."""

    tid: int
    round: int
    table: int
    places: tuple[int, ...]
    games: tuple[int, ...]
    drawn: int
    both_lose: bool
    by_user: int
    why: str
    past_rounds: bool
    """Whether a result of an earlier round may change (not in a bracket: later
    rounds were paired from it)."""

    def __call__(self, conn: sqlite3.Connection) -> int | None:
        row = _require(conn, self.tid, ("running",), "take results")
        pairing = _pairing(conn, self.tid, self.round, self.table)
        if pairing is None or self.round > row["round"]:
            raise NoSuchPairing(f"Round {self.round} has no table {self.table}.")
        seats = _seats(pairing)
        if len(seats) == 1:
            raise PairingClosed("A bye has no result to report.")
        if len(self.places) != len(seats) or len(self.games) != len(seats):
            raise PairingClosed(f"Table {self.table} has {len(seats)} seats.")
        if self.round < row["round"] and not self.past_rounds:
            raise TooLate(f"Round {self.round}'s results decided who plays on; only the "
                          "current round's can change.")
        old = _result_of(pairing)
        in_play = _game_in_play(conn, pairing)
        conn.execute("UPDATE tournament_pairings SET status = 'done', places = ?, games = ?,"
                     " drawn_games = ?, both_lose = ?, decided_by = 'organiser'"
                     " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                     (json.dumps(list(self.places)), json.dumps(list(self.games)), self.drawn,
                      int(self.both_lose), self.tid, self.round, self.table))
        new = _result_of(_pairing(conn, self.tid, self.round, self.table))  # type: ignore[arg-type]
        _audit(conn, self.tid, self.round, self.table, None, "result", self.by_user, old, new,
               self.why)
        return in_play


@dataclass(frozen=True, slots=True)
class _Drop:
    """An entrant leaves a running tournament (dropped or disqualified): never paired
    again, keeping their results. Their pairing of the current round, if it has no
    result and no game being played, is decided against them now; answers the match
    of a game of theirs being played (the caller forfeits their seat there)."""

    tid: int
    user_id: int
    by_user: int
    why: str
    disqualify: bool
    between_rounds: bool
    """A player dropping themselves: only while they have no match to finish."""

    def __call__(self, conn: sqlite3.Connection) -> int | None:
        row = _require(conn, self.tid, ("running",), "take drops")
        entrant = _entrant(conn, self.tid, self.user_id)
        if entrant["dropped_after"] is not None and not (
                self.disqualify and not entrant["disqualified"]):
            raise AlreadyDropped("Already dropped from this tournament.")
        round_no = row["round"]
        pairing = _current_pairing_of(conn, self.tid, round_no, self.user_id)
        unfinished = pairing is not None and pairing["status"] != "done"
        if self.between_rounds and unfinished:
            raise PairingClosed("Finish (or forfeit) your match of this round first; "
                                "you may drop once it has its result.")
        dropped_after = (entrant["dropped_after"] if entrant["dropped_after"] is not None
                         else round_no)
        conn.execute("UPDATE tournament_entrants SET dropped_after = ?, disqualified = ?"
                     " WHERE tournament_id = ? AND user_id = ?",
                     (dropped_after, int(self.disqualify or entrant["disqualified"]),
                      self.tid, self.user_id))
        _audit(conn, self.tid, round_no, None, self.user_id,
               "disqualify" if self.disqualify else "drop", self.by_user,
               {"dropped_after": entrant["dropped_after"],
                "disqualified": bool(entrant["disqualified"])},
               {"dropped_after": dropped_after,
                "disqualified": bool(self.disqualify or entrant["disqualified"])}, self.why)
        if pairing is None or not unfinished:
            return None
        in_play = _game_in_play(conn, pairing)
        if in_play is None:
            seats = _seats(pairing)
            left = _left(conn, self.tid, seats)
            games = json.loads(pairing["games"])
            decided = decide_pairing(games, pairing["drawn_games"], 1,
                                     [1] * len(seats), [user in left for user in seats])
            _write_result(conn, self.tid, round_no, pairing["table_no"], games,
                          pairing["drawn_games"], decided, "drop")
        return in_play


@dataclass(frozen=True, slots=True)
class _Finish:
    tid: int
    ranks: tuple[tuple[int, int], ...]

    def __call__(self, conn: sqlite3.Connection) -> None:
        row = _require(conn, self.tid, ("running",), "finish")
        _require_round_done(conn, self.tid, row["round"])
        for user, rank in self.ranks:
            conn.execute("UPDATE tournament_entrants SET final_rank = ? WHERE tournament_id = ?"
                         " AND user_id = ?", (rank, self.tid, user))
        conn.execute("UPDATE tournaments SET status = 'finished', finished_at = ? WHERE id = ?",
                     (_now(), self.tid))


@dataclass(frozen=True, slots=True)
class _Cancel:
    """Cancelled, keeping what was played; answers the matches of games being played."""

    tid: int
    by_user: int
    why: str

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        row = _require(conn, self.tid, ("created", "open", "checkin", "running"), "be cancelled")
        playing = [r[0] for r in conn.execute(
            "SELECT match_id FROM tournament_games WHERE tournament_id = ?"
            " AND outcome IS NULL ORDER BY match_id", (self.tid,))]
        conn.execute("UPDATE tournaments SET status = 'cancelled', finished_at = ? WHERE id = ?",
                     (_now(), self.tid))
        _audit(conn, self.tid, row["round"], None, None, "cancel", self.by_user,
               {"status": row["status"]}, {"status": "cancelled"}, self.why)
        return playing


@dataclass(frozen=True, slots=True)
class _Set:
    """One column of one tournament (the message id, what was announced)."""

    tid: int
    column: Literal["message_id", "announced_round", "announced_done", "final_announced"]
    value: int | None

    def __call__(self, conn: sqlite3.Connection) -> None:
        conn.execute(f"UPDATE tournaments SET {self.column} = ? WHERE id = ?",
                     (self.value, self.tid))


# -- reading rows --------------------------------------------------------------------------
def _tournament_row(row: sqlite3.Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        message_id=row["message_id"], name=row["name"], game=row["game"],
        format=row["format"], options=json.loads(row["options"]),
        settings=json.loads(row["settings"]), organiser_id=row["organiser_id"],
        status=row["status"], seed=row["seed"], round=row["round"],
        cut_after=row["cut_after"], announced_round=row["announced_round"],
        announced_done=row["announced_done"], final_announced=bool(row["final_announced"]),
        created_at=row["created_at"], started_at=row["started_at"],
        finished_at=row["finished_at"])


def _entrant_row(row: sqlite3.Row) -> EntrantRow:
    return EntrantRow(
        tournament_id=row["tournament_id"], user_id=row["user_id"], name=row["name"],
        seed=row["seed"], cut_seed=row["cut_seed"], checked_in=bool(row["checked_in"]),
        dropped_after=row["dropped_after"], disqualified=bool(row["disqualified"]),
        no_shows=row["no_shows"], final_rank=row["final_rank"], joined_at=row["joined_at"])


def _pairing_row(row: sqlite3.Row) -> PairingRow:
    places = row["places"]
    return PairingRow(
        tournament_id=row["tournament_id"], round=row["round"], table=row["table_no"],
        stage=row["stage"], seats=tuple(json.loads(row["seats"])), label=row["label"],
        status=row["status"], match_id=row["match_id"], thread_id=row["thread_id"],
        games=tuple(json.loads(row["games"])), drawn_games=row["drawn_games"],
        places=None if places is None else tuple(json.loads(places)),
        both_lose=bool(row["both_lose"]), decided_by=row["decided_by"],
        games_linked=row["games_linked"], game_outcome=row["game_outcome"])


_PAIRINGS = ("SELECT p.*, (SELECT COUNT(*) FROM tournament_games g"
             " WHERE g.tournament_id = p.tournament_id AND g.round = p.round"
             " AND g.table_no = p.table_no) AS games_linked,"
             " (SELECT g.outcome FROM tournament_games g WHERE g.match_id = p.match_id)"
             " AS game_outcome FROM tournament_pairings p")


class TournamentRepository:
    """Reads and writes of tournaments. Every write is one transaction."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- reads ---------------------------------------------------------------------
    async def get(self, tournament_id: int) -> TournamentRow | None:
        """One tournament."""
        row = await self._db.fetchone("SELECT * FROM tournaments WHERE id = ?",
                                      (tournament_id,))
        return None if row is None else _tournament_row(row)

    async def live_in_guild(self, guild_id: int) -> list[TournamentRow]:
        """A server's tournaments that are neither finished nor cancelled, oldest first."""
        rows = await self._db.fetchall(
            "SELECT * FROM tournaments WHERE guild_id = ? AND status NOT IN"
            " ('finished', 'cancelled') ORDER BY id", (guild_id,))
        return [_tournament_row(row) for row in rows]

    async def to_restore(self) -> list[TournamentRow]:
        """Running tournaments, and finished or cancelled ones whose end was not yet
        announced (for a restart), oldest first."""
        rows = await self._db.fetchall(
            "SELECT * FROM tournaments WHERE status = 'running' OR (status IN"
            " ('finished', 'cancelled') AND final_announced = 0) ORDER BY id")
        return [_tournament_row(row) for row in rows]

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """Its entrants, by seed once seeded, else in the order they joined."""
        rows = await self._db.fetchall(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ?"
            " ORDER BY seed IS NULL, seed, joined_at, rowid", (tournament_id,))
        return [_entrant_row(row) for row in rows]

    async def entrant(self, tournament_id: int, user_id: int) -> EntrantRow | None:
        """One entrant."""
        row = await self._db.fetchone("SELECT * FROM tournament_entrants WHERE"
                                      " tournament_id = ? AND user_id = ?",
                                      (tournament_id, user_id))
        return None if row is None else _entrant_row(row)

    async def pairings(self, tournament_id: int, round_no: int | None = None
                       ) -> list[PairingRow]:
        """Its pairings (of one round, or all), by round and table."""
        where, params = " WHERE p.tournament_id = ?", (tournament_id,)
        if round_no is not None:
            where, params = where + " AND p.round = ?", (tournament_id, round_no)
        rows = await self._db.fetchall(_PAIRINGS + where + " ORDER BY p.round, p.table_no",
                                       params)
        return [_pairing_row(row) for row in rows]

    async def pairing(self, tournament_id: int, round_no: int, table: int
                      ) -> PairingRow | None:
        """One pairing."""
        row = await self._db.fetchone(
            _PAIRINGS + " WHERE p.tournament_id = ? AND p.round = ? AND p.table_no = ?",
            (tournament_id, round_no, table))
        return None if row is None else _pairing_row(row)

    async def game(self, match_id: int) -> GameLink | None:
        """The tournament game a match is, if it is one."""
        row = await self._db.fetchone(
            "SELECT g.*, t.settings FROM tournament_games g"
            " JOIN tournaments t ON t.id = g.tournament_id WHERE g.match_id = ?", (match_id,))
        if row is None:
            return None
        return GameLink(match_id=row["match_id"], tournament_id=row["tournament_id"],
                        round=row["round"], table=row["table_no"], game_no=row["game_no"],
                        outcome=row["outcome"],
                        rated=bool(json.loads(row["settings"]).get("rated", True)))

    async def games(self, tournament_id: int) -> list[GameLink]:
        """Every game of a tournament, in the order they were opened (its history)."""
        rows = await self._db.fetchall(
            "SELECT g.*, t.settings FROM tournament_games g"
            " JOIN tournaments t ON t.id = g.tournament_id WHERE g.tournament_id = ?"
            " ORDER BY g.match_id", (tournament_id,))
        return [GameLink(match_id=row["match_id"], tournament_id=row["tournament_id"],
                         round=row["round"], table=row["table_no"], game_no=row["game_no"],
                         outcome=row["outcome"],
                         rated=bool(json.loads(row["settings"]).get("rated", True)))
                for row in rows]

    async def audit(self, tournament_id: int) -> list[AuditRow]:
        """Its audit rows, oldest first."""
        rows = await self._db.fetchall("SELECT * FROM tournament_audit WHERE tournament_id = ?"
                                       " ORDER BY id", (tournament_id,))
        return [AuditRow(id=row["id"], tournament_id=row["tournament_id"], round=row["round"],
                         table=row["table_no"], user_id=row["user_id"], action=row["action"],
                         by_user=row["by_user"], at=row["at"],
                         old=None if row["old"] is None else json.loads(row["old"]),
                         new=json.loads(row["new"]), why=row["why"]) for row in rows]

    async def of_player(self, guild_id: int, user_id: int
                        ) -> list[tuple[TournamentRow, EntrantRow]]:
        """The tournaments someone entered on a server, newest first (their
        tournament history; ``final_rank`` 1 is a tournament won)."""
        rows = await self._db.fetchall(
            "SELECT t.* FROM tournaments t JOIN tournament_entrants e"
            " ON e.tournament_id = t.id WHERE t.guild_id = ? AND e.user_id = ?"
            " ORDER BY t.id DESC", (guild_id, user_id))
        entrants = {row["tournament_id"]: _entrant_row(row) for row in await self._db.fetchall(
            "SELECT e.* FROM tournament_entrants e JOIN tournaments t"
            " ON t.id = e.tournament_id WHERE t.guild_id = ? AND e.user_id = ?",
            (guild_id, user_id))}
        return [(_tournament_row(row), entrants[row["id"]]) for row in rows]

    # -- writes --------------------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, name: str, game: str,
                     format: str, options: Mapping[str, Any], settings: Mapping[str, Any],
                     organiser_id: int, seed: int) -> int:
        """A new tournament (status ``created``); returns its id."""
        return await self._db.write(_Create(
            guild_id, channel_id, name, game, format, json.dumps(dict(options), sort_keys=True),
            json.dumps(dict(settings), sort_keys=True), organiser_id, seed))

    async def set_status(self, tournament_id: int, status: TournamentStatus, *,
                         allowed: Sequence[TournamentStatus], doing: str) -> None:
        """Move to ``status`` from one of ``allowed`` (refused from any other)."""
        await self._db.write(_SetStatus(tournament_id, tuple(allowed), status, doing))

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the tournament's message (its buttons) in its channel."""
        await self._db.write(_Set(tournament_id, "message_id", message_id))

    async def announced(self, tournament_id: int, round_no: int) -> None:
        """Round ``round_no``'s pairings are posted."""
        await self._db.write(_Set(tournament_id, "announced_round", round_no))

    async def announced_done(self, tournament_id: int, round_no: int) -> None:
        """Round ``round_no`` is posted as complete (waiting for the organiser)."""
        await self._db.write(_Set(tournament_id, "announced_done", round_no))

    async def final_announced(self, tournament_id: int) -> None:
        """The final standings (or the cancel) are posted."""
        await self._db.write(_Set(tournament_id, "final_announced", 1))

    async def join(self, tournament_id: int, user_id: int, name: str, *,
                   allowed: Sequence[TournamentStatus] = ("open", "checkin"),
                   max_players: int | None = None) -> None:
        """A new entrant (checked in if check-in is on); refused if already in, if
        full, or if the status is not one of ``allowed``."""
        await self._db.write(_Join(tournament_id, user_id, name, tuple(allowed), max_players))

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """An entrant leaves before the start (afterwards they drop)."""
        await self._db.write(_Leave(tournament_id, user_id))

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        """An entrant is here (during check-in)."""
        await self._db.write(_CheckIn(tournament_id, user_id))

    async def close_check_in(self, tournament_id: int) -> list[int]:
        """Check-in ends: those who did not check in are removed (returned); the
        tournament is open for registration again, late entrants counting as here."""
        return await self._db.write(_CloseCheckIn(tournament_id))

    async def start(self, tournament_id: int, seeds: Sequence[tuple[int, int]],
                    pairings: Sequence[PairingPlan]) -> list[int]:
        """Start with these ``(user, seed)`` and round 1's pairings (refused with
        :class:`EntrantsChanged` unless the entrants — the checked-in ones, during
        check-in — are exactly the seeded ones). Returns those removed for not
        checking in."""
        return await self._db.write(_Start(tournament_id, tuple(seeds), tuple(pairings)))

    async def add_round(self, tournament_id: int, round_no: int, pairings: Sequence[PairingPlan],
                        *, stage: Stage = "main",
                        cut_seeds: Sequence[tuple[int, int]] = ()) -> None:
        """The next round's pairings (byes decided at once); with ``cut_seeds``
        ``(user, seed)``, the top cut begins with it."""
        await self._db.write(_AddRound(tournament_id, round_no, stage, tuple(pairings),
                                       tuple(cut_seeds)))

    async def set_thread(self, tournament_id: int, round_no: int, table: int,
                         thread_id: int) -> None:
        """Where a pairing's games are played."""
        await self._db.write(_SetThread(tournament_id, round_no, table, thread_id))

    async def link_game(self, tournament_id: int, round_no: int, table: int, game_no: int,
                        match_id: int) -> None:
        """``match_id`` (not started yet) is game ``game_no`` of the pairing."""
        await self._db.write(_LinkGame(tournament_id, round_no, table, game_no, match_id))

    async def report(self, tournament_id: int, round_no: int, table: int, *,
                     places: Sequence[int], games: Sequence[int], drawn: int = 0,
                     both_lose: bool = False, by_user: int, why: str,
                     past_rounds: bool = True) -> int | None:
        """The organiser's result for a pairing, with its audit row; returns the
        match of a game of it being played (now moot), if any."""
        return await self._db.write(_Report(tournament_id, round_no, table, tuple(places),
                                            tuple(games), drawn, both_lose, by_user, why,
                                            past_rounds))

    async def drop(self, tournament_id: int, user_id: int, *, by_user: int, why: str = "",
                   disqualify: bool = False, between_rounds: bool = False) -> int | None:
        """Drop (or disqualify) an entrant of a running tournament; returns the match
        of a game of theirs being played, if any."""
        return await self._db.write(_Drop(tournament_id, user_id, by_user, why, disqualify,
                                          between_rounds))

    async def finish(self, tournament_id: int, ranks: Sequence[tuple[int, int]]) -> None:
        """Finished, with each ``(user, final rank)``."""
        await self._db.write(_Finish(tournament_id, tuple(ranks)))

    async def cancel(self, tournament_id: int, *, by_user: int, why: str = "") -> list[int]:
        """Cancelled, keeping what was played; returns the matches of its games being
        played (the caller closes them)."""
        return await self._db.write(_Cancel(tournament_id, by_user, why))
