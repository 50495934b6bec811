"""Tournaments: their entrants, rounds of pairings, the games each pairing played and
an append-only audit (migration 009; the spec: tournaments.md).

Rules this module keeps:

* **One write per change.** Every change is one write (a picklable ``work(conn)`` run by
  the writer process in its transaction) that re-checks the tournament's status and
  raises a :class:`TournamentRefusal` (plain, one message: it pickles) when the change
  does not fit; then nothing of it is stored.
* **A game counts in the transaction that records it.** Each game of a pairing is an
  ordinary match, linked to its pairing in ``tournament_games`` before it starts
  (:meth:`TournamentRepository.link_game`), so the write that records the match's
  result adds it to its pairing (:func:`storage.tournament_games.record_game_in`).
* **What the formats read is kept whole.** A pairing keeps its seats (entrant ids:
  Discord user ids), games won per seat, drawn games and places, as
  :class:`rules.tournament.model.Result` reads them; everything else (standings, the
  next round) is worked out again from these and the tournament's seed.

How a game counts for its pairing (best of three, absences, drops, cancelled games):
:mod:`storage.tournament_games`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rules.phrases import Phrase, Words
from storage.errors import StorageError
from storage.tournament_games import (
    GameOutcome,
    audit_in,
    decide_pairing,
    left_in,
    now_iso,
    pairing_in,
    seats_of,
    tournament_in,
    write_result_in,
)

if TYPE_CHECKING:
    from storage.db import Database

TournamentStatus = Literal["created", "open", "checkin", "running", "finished", "cancelled"]
PairingStatus = Literal["pending", "playing", "done"]
Stage = Literal["main", "cut"]
BEFORE_START: tuple[TournamentStatus, ...] = ("created", "open", "checkin")
FINAL: tuple[TournamentStatus, ...] = ("finished", "cancelled")
BYE_GAMES = 2
"""A bye is a match won 2–0 (the spec's Swiss arithmetic)."""
MOST_ENTRANTS = 512
"""Most entrants a tournament takes, however they enter (joining, added by the
organiser, computer players): every write that enters someone checks it."""


# -- refusals: plain exceptions with one message, so they pickle across the writer pipe --
class TournamentRefusal(StorageError):
    """A tournament change refused; nothing of it is stored. Its one argument is its
    words as a :class:`~rules.phrases.Phrase` (a key of the ``tournaments`` catalog and
    its arguments: storage keeps no sentences)."""

    @property
    def words(self) -> Words:
        """What it says, for the reader's language."""
        return self.args[0] if self.args else ""


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
    level: str = "normal"
    """A computer entrant's level (its key), the level its games are played at."""

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
    """Its place: a thread or channel id, or (below 0) no Discord channel: a table of
    computer players only, played where nobody watches."""
    games: tuple[int, ...]
    drawn_games: int
    places: tuple[int, ...] | None
    both_lose: bool
    decided_by: str | None
    games_linked: int
    """How many games were opened for it (cancelled ones too)."""
    game_outcome: GameOutcome | None
    """The current game's outcome; ``None`` while it is played (or if there is none)."""
    place_retired: bool = False
    """Its place was given back (a thread archived, a channel deleted)."""

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


def _require(conn: sqlite3.Connection, tid: int,
             statuses: Sequence[TournamentStatus], doing: Words) -> sqlite3.Row:
    """The tournament, if its status is one of ``statuses``; refused otherwise."""
    row = tournament_in(conn, tid)
    if row is None:
        raise NoSuchTournament(Phrase("tournaments.refusal.no_tournament", id=tid))
    if row["status"] not in statuses:
        raise WrongStatus(Phrase("tournaments.refusal.wrong_status", id=tid,
                                 status=_STATUS_WORDS.get(row["status"], row["status"]),
                                 doing=doing))
    return row


_STATUS_WORDS = {"created": Phrase("tournaments.refusal.status.created"),
                 "open": Phrase("tournaments.refusal.status.open"),
                 "checkin": Phrase("tournaments.refusal.status.checkin"),
                 "running": Phrase("tournaments.refusal.status.running"),
                 "finished": Phrase("tournaments.refusal.status.finished"),
                 "cancelled": Phrase("tournaments.refusal.status.cancelled")}


def _entrant(conn: sqlite3.Connection, tid: int, user: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM tournament_entrants WHERE tournament_id = ?"
                       " AND user_id = ?", (tid, user)).fetchone()
    if row is None:
        raise NotEntered(Phrase("tournaments.error.not_entered"))
    return row


def _current_pairing_of(conn: sqlite3.Connection, tid: int, round_no: int,
                        user: int) -> sqlite3.Row | None:
    """``user``'s pairing in ``round_no``, if they have one."""
    for row in conn.execute("SELECT * FROM tournament_pairings WHERE tournament_id = ?"
                            " AND round = ?", (tid, round_no)):
        if user in seats_of(row):
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


def _make_room(conn: sqlite3.Connection, tid: int, adding: int,
               max_players: int | None = None) -> None:
    """Refused unless ``adding`` more entrants fit: never past :data:`MOST_ENTRANTS`,
    and not past the organiser's ``max_players`` (given for those who join)."""
    entered = conn.execute("SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?",
                           (tid,)).fetchone()[0]
    if entered + adding > MOST_ENTRANTS:
        raise Full(Phrase("tournaments.refusal.most_entrants", most=MOST_ENTRANTS,
                          entered=entered))
    if max_players is not None and entered + adding > max_players:
        raise Full(Phrase("tournaments.refusal.full", most=max_players))


def _last_entry_no(conn: sqlite3.Connection, tid: int) -> int:
    """The tournament's latest join number (0: nobody entered yet). The next entrant
    takes the one after: the order they joined in, on both engines (migration 017)."""
    return int(conn.execute("SELECT COALESCE(MAX(entry_no), 0) FROM tournament_entrants"
                            " WHERE tournament_id = ?", (tid,)).fetchone()[0])


def _require_round_done(conn: sqlite3.Connection, tid: int, round_no: int) -> None:
    row = conn.execute("SELECT COUNT(*) AS n FROM tournament_pairings WHERE tournament_id = ?"
                       " AND round = ? AND status <> 'done'", (tid, round_no)).fetchone()
    if row["n"]:
        raise RoundNotDone(Phrase("tournaments.refusal.round_not_done", count=row["n"],
                                  round=round_no))


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
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'created', ?, ?) RETURNING id",
            (self.guild_id, self.channel_id, self.name, self.game, self.format, self.options,
             self.settings, self.organiser_id, self.seed, now_iso()))
        return int(cur.fetchone()[0])


@dataclass(frozen=True, slots=True)
class _SetStatus:
    tid: int
    allowed: tuple[TournamentStatus, ...]
    status: TournamentStatus
    doing: Words

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
        row = _require(conn, self.tid, self.allowed,
                     Phrase("tournaments.doing.take_entrants"))
        if conn.execute("SELECT 1 FROM tournament_entrants WHERE tournament_id = ?"
                        " AND user_id = ?", (self.tid, self.user_id)).fetchone():
            raise AlreadyEntered(Phrase("tournaments.refusal.already_entered"))
        _make_room(conn, self.tid, 1, self.max_players)
        # Joining during check-in is being here: it checks in too.
        conn.execute("INSERT INTO tournament_entrants (tournament_id, user_id, name,"
                     " checked_in, joined_at, entry_no) VALUES (?, ?, ?, ?, ?, ?)",
                     (self.tid, self.user_id, self.name, int(row["status"] == "checkin"),
                      now_iso(), _last_entry_no(conn, self.tid) + 1))


@dataclass(frozen=True, slots=True)
class _AddComputers:
    """Computer players enter: the next free negative ids, named "Computer N", always
    checked in (a computer is always here), each playing at ``level``."""

    tid: int
    count: int
    allowed: tuple[TournamentStatus, ...]
    level: str = "normal"

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        _require(conn, self.tid, self.allowed,
                     Phrase("tournaments.doing.take_entrants"))
        _make_room(conn, self.tid, self.count)
        lowest = conn.execute("SELECT MIN(user_id) FROM tournament_entrants"
                              " WHERE tournament_id = ?", (self.tid,)).fetchone()[0]
        first = min(lowest or 0, 0) - 1
        users = list(range(first, first - self.count, -1))
        last = _last_entry_no(conn, self.tid)
        conn.executemany(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, checked_in,"
            " joined_at, level, entry_no) VALUES (?, ?, ?, 1, ?, ?, ?)",
            [(self.tid, user, f"Computer {-user}", now_iso(), self.level, last + n)
             for n, user in enumerate(users, start=1)])
        return users


@dataclass(frozen=True, slots=True)
class _Leave:
    tid: int
    user_id: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        _require(conn, self.tid, BEFORE_START,
                     Phrase("tournaments.doing.lose_entrants"))
        _entrant(conn, self.tid, self.user_id)
        conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                     (self.tid, self.user_id))


@dataclass(frozen=True, slots=True)
class _CheckIn:
    tid: int
    user_id: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        _require(conn, self.tid, ("checkin",),
                     Phrase("tournaments.doing.take_checkins"))
        _entrant(conn, self.tid, self.user_id)
        conn.execute("UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ?"
                     " AND user_id = ?", (self.tid, self.user_id))


@dataclass(frozen=True, slots=True)
class _CloseCheckIn:
    """Check-in ends: who did not check in is removed; registration goes on."""

    tid: int

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        _require(conn, self.tid, ("checkin",),
                     Phrase("tournaments.doing.close_checkin"))
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
        row = _require(conn, self.tid, ("open", "checkin"),
                     Phrase("tournaments.doing.start"))
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
            raise EntrantsChanged(Phrase("tournaments.refusal.entrants_changed"))
        for user, seed in self.seeds:
            conn.execute("UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ?"
                         " AND user_id = ?", (seed, self.tid, user))
        conn.execute("UPDATE tournaments SET status = 'running', started_at = ? WHERE id = ?",
                     (now_iso(), self.tid))
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
        row = _require(conn, self.tid, ("running",),
                     Phrase("tournaments.doing.pair_round"))
        if self.round <= row["round"]:
            raise EntrantsChanged(Phrase("tournaments.refusal.paired_already",
                                         round=self.round, current=row["round"]))
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
class _PlaceRetired:
    tid: int
    round: int
    table: int

    def __call__(self, conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE tournament_pairings SET place_retired = 1 WHERE tournament_id = ?"
                     " AND round = ? AND table_no = ?", (self.tid, self.round, self.table))


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
        _require(conn, self.tid, ("running",),
                     Phrase("tournaments.doing.start_game"))
        pairing = pairing_in(conn, self.tid, self.round, self.table)
        if pairing is None:
            raise NoSuchPairing(Phrase("tournaments.error.no_table", round=self.round,
                                       table=self.table))
        if pairing["status"] == "done" or _game_in_play(conn, pairing) is not None:
            raise PairingClosed(Phrase("tournaments.refusal.table_busy", table=self.table,
                                       round=self.round))
        linked = conn.execute("SELECT COUNT(*) FROM tournament_games WHERE tournament_id = ?"
                              " AND round = ? AND table_no = ?",
                              (self.tid, self.round, self.table)).fetchone()[0]
        if linked + 1 != self.game_no:
            raise PairingClosed(Phrase("tournaments.refusal.not_next_game", game=self.game_no,
                                       table=self.table))
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
        row = _require(conn, self.tid, ("running",),
                     Phrase("tournaments.doing.take_results"))
        pairing = pairing_in(conn, self.tid, self.round, self.table)
        if pairing is None or self.round > row["round"]:
            raise NoSuchPairing(Phrase("tournaments.error.no_table", round=self.round,
                                       table=self.table))
        seats = seats_of(pairing)
        if len(seats) == 1:
            raise PairingClosed(Phrase("tournaments.error.bye_result"))
        if len(self.places) != len(seats) or len(self.games) != len(seats):
            raise PairingClosed(Phrase("tournaments.refusal.seats", table=self.table,
                                       count=len(seats)))
        if self.round < row["round"] and not self.past_rounds:
            raise TooLate(Phrase("tournaments.refusal.too_late", round=self.round))
        old = _result_of(pairing)
        in_play = _game_in_play(conn, pairing)
        conn.execute("UPDATE tournament_pairings SET status = 'done', places = ?, games = ?,"
                     " drawn_games = ?, both_lose = ?, decided_by = 'organiser'"
                     " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                     (json.dumps(list(self.places)), json.dumps(list(self.games)), self.drawn,
                      int(self.both_lose), self.tid, self.round, self.table))
        new = _result_of(pairing_in(conn, self.tid, self.round, self.table))  # type: ignore[arg-type]
        audit_in(conn, self.tid, self.round, self.table, None, "result", self.by_user, old, new,
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
        row = _require(conn, self.tid, ("running",),
                     Phrase("tournaments.doing.take_drops"))
        entrant = _entrant(conn, self.tid, self.user_id)
        if entrant["dropped_after"] is not None and not (
                self.disqualify and not entrant["disqualified"]):
            raise AlreadyDropped(Phrase("tournaments.refusal.already_dropped"))
        round_no = row["round"]
        pairing = _current_pairing_of(conn, self.tid, round_no, self.user_id)
        unfinished = pairing is not None and pairing["status"] != "done"
        if self.between_rounds and unfinished:
            raise PairingClosed(Phrase("tournaments.refusal.finish_first"))
        dropped_after = (entrant["dropped_after"] if entrant["dropped_after"] is not None
                         else round_no)
        conn.execute("UPDATE tournament_entrants SET dropped_after = ?, disqualified = ?"
                     " WHERE tournament_id = ? AND user_id = ?",
                     (dropped_after, int(self.disqualify or entrant["disqualified"]),
                      self.tid, self.user_id))
        audit_in(conn, self.tid, round_no, None, self.user_id,
                 "disqualify" if self.disqualify else "drop", self.by_user,
                 {"dropped_after": entrant["dropped_after"],
                  "disqualified": bool(entrant["disqualified"])},
                 {"dropped_after": dropped_after,
                  "disqualified": bool(self.disqualify or entrant["disqualified"])}, self.why)
        if pairing is None or not unfinished:
            return None
        in_play = _game_in_play(conn, pairing)
        if in_play is None:
            seats = seats_of(pairing)
            left = left_in(conn, self.tid, seats)
            games = json.loads(pairing["games"])
            decided = decide_pairing(games, pairing["drawn_games"], 1,
                                     [1] * len(seats), [user in left for user in seats])
            write_result_in(conn, self.tid, round_no, pairing["table_no"], games,
                            pairing["drawn_games"], decided, "drop")
        return in_play


@dataclass(frozen=True, slots=True)
class _Finish:
    tid: int
    ranks: tuple[tuple[int, int], ...]

    def __call__(self, conn: sqlite3.Connection) -> None:
        row = _require(conn, self.tid, ("running",),
                     Phrase("tournaments.doing.finish"))
        _require_round_done(conn, self.tid, row["round"])
        for user, rank in self.ranks:
            conn.execute("UPDATE tournament_entrants SET final_rank = ? WHERE tournament_id = ?"
                         " AND user_id = ?", (rank, self.tid, user))
        conn.execute("UPDATE tournaments SET status = 'finished', finished_at = ? WHERE id = ?",
                     (now_iso(), self.tid))


@dataclass(frozen=True, slots=True)
class _Cancel:
    """Cancelled, keeping what was played; answers the matches of games being played."""

    tid: int
    by_user: int
    why: str

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        row = _require(conn, self.tid, ("created", "open", "checkin", "running"),
                     Phrase("tournaments.doing.be_cancelled"))
        playing = [r[0] for r in conn.execute(
            "SELECT match_id FROM tournament_games WHERE tournament_id = ?"
            " AND outcome IS NULL ORDER BY match_id", (self.tid,))]
        conn.execute("UPDATE tournaments SET status = 'cancelled', finished_at = ? WHERE id = ?",
                     (now_iso(), self.tid))
        audit_in(conn, self.tid, row["round"], None, None, "cancel", self.by_user,
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
        no_shows=row["no_shows"], final_rank=row["final_rank"], joined_at=row["joined_at"],
        level=row["level"])


def _pairing_row(row: Sequence[Any], parsed: dict[str, tuple[Any, ...]] | None = None
                 ) -> PairingRow:
    """A pairing read by :data:`_PAIRINGS` (its columns by place: a row's names are
    looked up one by one, which a tournament's thousands of rows feel); ``parsed``
    keeps the JSON lists already read by the caller (a tournament's games and places
    are a handful of texts over thousands of rows)."""
    known = {} if parsed is None else parsed
    (tournament_id, round_no, table, stage, seats, label, status, match_id, thread_id,
     games, drawn_games, places, both_lose, decided_by, place_retired, games_linked,
     game_outcome) = row
    # By place, in PairingRow's order (its keywords cost a tournament's page a little).
    return PairingRow(
        tournament_id, round_no, table, stage, _json_tuple(seats, known), label, status,
        match_id, thread_id, _json_tuple(games, known), drawn_games,
        None if places is None else _json_tuple(places, known), bool(both_lose),
        decided_by, games_linked, game_outcome, bool(place_retired))


def _json_tuple(text: str, known: dict[str, tuple[Any, ...]]) -> tuple[Any, ...]:
    """A stored JSON list as a tuple, read once per text (tuples are shared safely)."""
    found = known.get(text)
    if found is None:
        found = known[text] = tuple(json.loads(text))
    return found


_PAIRINGS = ("SELECT p.tournament_id, p.round, p.table_no, p.stage, p.seats, p.label,"
             " p.status, p.match_id, p.thread_id, p.games, p.drawn_games, p.places,"
             " p.both_lose, p.decided_by, p.place_retired,"
             " (SELECT COUNT(*) FROM tournament_games g"
             " WHERE g.tournament_id = p.tournament_id AND g.round = p.round"
             " AND g.table_no = p.table_no) AS games_linked,"
             " (SELECT g.outcome FROM tournament_games g WHERE g.match_id = p.match_id)"
             " AS game_outcome FROM tournament_pairings p")
"""A pairing's columns in :func:`_pairing_row`'s order."""


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
            " ORDER BY seed IS NULL, seed, joined_at, entry_no", (tournament_id,))
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
        parsed: dict[str, tuple[Any, ...]] = {}
        return [_pairing_row(row, parsed) for row in rows]

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
            "SELECT g.match_id, g.round, g.table_no, g.game_no, g.outcome, t.settings"
            " FROM tournament_games g JOIN tournaments t ON t.id = g.tournament_id"
            " WHERE g.tournament_id = ? ORDER BY g.match_id", (tournament_id,))
        # Every row carries the one tournament's settings: read once, not once a game
        # (a Swiss of 500 plays thousands).
        rated: dict[str, bool] = {}
        games = []
        for match_id, round_no, table, game_no, outcome, settings in rows:
            if settings not in rated:
                rated[settings] = bool(json.loads(settings).get("rated", True))
            games.append(GameLink(match_id, tournament_id, round_no, table, game_no, outcome,
                                  rated[settings]))
        return games

    async def version(self, tournament_id: int) -> str | None:
        """A short text that changes whenever anything shown of the tournament does
        (its status and round, who entered, checked in or dropped, each pairing, game
        and result, every correction), in one read of counts over indexes: what a page
        polls to learn whether to read the rest. ``None``: no such tournament."""
        row = await self._db.fetchone(
            "SELECT t.status, t.round, t.cut_after,"
            " (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id),"
            " (SELECT COALESCE(MAX(e.entry_no), 0) FROM tournament_entrants e"
            "  WHERE e.tournament_id = t.id),"
            # Who, not only how many: one leaving and another joining last reuse the
            # number. Summed modulo a prime, since 500 Discord ids would overflow.
            " (SELECT COALESCE(SUM(e.user_id % 1000003), 0) FROM tournament_entrants e"
            "  WHERE e.tournament_id = t.id),"
            " (SELECT COALESCE(SUM(e.checked_in), 0) FROM tournament_entrants e"
            "  WHERE e.tournament_id = t.id),"
            " (SELECT COUNT(e.dropped_after) FROM tournament_entrants e"
            "  WHERE e.tournament_id = t.id),"
            " (SELECT COUNT(*) FROM tournament_pairings p WHERE p.tournament_id = t.id),"
            " (SELECT COUNT(*) FROM tournament_pairings p WHERE p.tournament_id = t.id"
            "  AND p.status = 'done'),"
            " (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id),"
            " (SELECT COUNT(g.outcome) FROM tournament_games g WHERE g.tournament_id = t.id),"
            " (SELECT COALESCE(MAX(a.id), 0) FROM tournament_audit a"
            "  WHERE a.tournament_id = t.id)"
            " FROM tournaments t WHERE t.id = ?", (tournament_id,))
        if row is None:
            return None
        # Hashed: the counts are the page's business, but the audit's ids run across
        # every server's tournaments, and a version is shown to anyone with the page.
        raw = ".".join(str(value) for value in tuple(row))
        return hashlib.blake2b(raw.encode(), digest_size=8).hexdigest()

    async def audit(self, tournament_id: int) -> list[AuditRow]:
        """Its audit rows, oldest first."""
        rows = await self._db.fetchall("SELECT * FROM tournament_audit WHERE tournament_id = ?"
                                       " ORDER BY id", (tournament_id,))
        return [AuditRow(id=row["id"], tournament_id=row["tournament_id"], round=row["round"],
                         table=row["table_no"], user_id=row["user_id"], action=row["action"],
                         by_user=row["by_user"], at=row["at"],
                         old=None if row["old"] is None else json.loads(row["old"]),
                         new=json.loads(row["new"]), why=row["why"]) for row in rows]

    async def latest_in_guild(self, guild_id: int, channel_id: int | None = None
                              ) -> TournamentRow | None:
        """A server's newest tournament whatever its status (the newest created in
        ``channel_id``, if given)."""
        row = await self._db.fetchone(
            "SELECT * FROM tournaments WHERE guild_id = ? AND (? IS NULL OR channel_id = ?)"
            " ORDER BY id DESC LIMIT 1", (guild_id, channel_id, channel_id))
        return None if row is None else _tournament_row(row)

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
                         allowed: Sequence[TournamentStatus], doing: Words) -> None:
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
        """A new entrant (checked in if check-in is on); refused if already in, if the
        status is not one of ``allowed``, or with :class:`Full` past ``max_players``
        (if given) or :data:`MOST_ENTRANTS` entrants."""
        await self._db.write(_Join(tournament_id, user_id, name, tuple(allowed), max_players))

    async def add_computers(self, tournament_id: int, count: int, *,
                            allowed: Sequence[TournamentStatus],
                            level: str = "normal") -> list[int]:
        """``count`` computer players of ``level`` (its key) enter (negative user ids,
        returned); refused with :class:`Full` past :data:`MOST_ENTRANTS` entrants in
        all."""
        return await self._db.write(_AddComputers(tournament_id, count, tuple(allowed),
                                                  level))

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

    async def place_retired(self, tournament_id: int, round_no: int, table: int) -> None:
        """The pairing's place was given back (its thread archived, its channel deleted)."""
        await self._db.write(_PlaceRetired(tournament_id, round_no, table))

    async def places_held(self, tournament_id: int) -> list[PairingRow]:
        """The pairings whose place (a thread or channel of their own) is not given back
        yet, by round and table."""
        rows = await self._db.fetchall(
            _PAIRINGS + " WHERE p.tournament_id = ? AND p.thread_id > 0"
            " AND p.place_retired = 0 ORDER BY p.round, p.table_no", (tournament_id,))
        return [_pairing_row(row) for row in rows]

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
