"""Matches, their seats, the append-only choice log and results."""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from storage.collections import ante_staked_in, grant_pack_in, settle_ante_in, stake_cards_in
from storage.errors import (
    ChannelBusy,
    DuplicateInteraction,
    MatchMoved,
    match_moved,
    unique_violation,
)
from storage.models import Ante, ChoiceRow, MatchRow, MatchStatus, Rater, SeatResult, SeatRow
from storage.tournament_games import game_closed_in, record_game_in

if TYPE_CHECKING:
    from storage.db import Database

_stamp: tuple[int, str] = (0, "")


def _now() -> str:
    """The time in ISO form, to the second (made once a second: every move asks)."""
    global _stamp
    second = int(time.time())
    if _stamp[0] != second:
        _stamp = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds"))
    return _stamp[1]


INSERT_CHOICE = ("INSERT INTO match_choices (match_id, seq, seat, choice, source, step,"
                 " interaction_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
BULK_ROWS = 1024
"""Most rows one statement of :meth:`_Move.bulk` writes (11 parameters each,
within SQLite's 32,766)."""
_MOVE_FIELDS = 11
_PADDING = (None,) * _MOVE_FIELDS


def _choice_rows(match_id: int, choices: Sequence[ChoiceRow]) -> list[tuple[Any, ...]]:
    stamp = _now()
    return [(match_id, c.seq, c.seat, c.choice, c.source, c.step, c.interaction_id, stamp)
            for c in choices]


@functools.cache
def _insert_moves(rows: int) -> str:
    """The statement inserting ``rows`` rows into the ``moves`` view."""
    return "INSERT INTO moves VALUES " + ", ".join(
        ["(" + ", ".join("?" * _MOVE_FIELDS) + ")"] * rows)


def _write_move_rows(conn: sqlite3.Connection, values: list[Any]) -> None:
    """One statement for up to :data:`BULK_ROWS` rows of ``moves``, padded to a
    power of two rows: a dozen statement texts, all kept compiled
    (:data:`~storage.connection.CACHED_STATEMENTS`)."""
    rows = len(values) // _MOVE_FIELDS
    if not rows:
        return
    size = 1 << (rows - 1).bit_length()
    conn.execute(_insert_moves(size), values + list(_PADDING * (size - rows)))


def _write_moves(conn: sqlite3.Connection, moves: Sequence[_Move]) -> None:
    """The moves' rows and deadlines: one statement per :data:`BULK_ROWS` rows."""
    values: list[Any] = []
    for move in moves:
        # The first row carries the version the move was made from (-1: unchecked):
        # the view's trigger checks it and bumps it once per move (migration 018).
        tail = (move.deadline_at, move.warned, -1 if move.version is None else move.version)
        for row in move.rows:
            values += row
            values += tail
            tail = (move.deadline_at, move.warned, None)
    step = BULK_ROWS * _MOVE_FIELDS
    for start in range(0, len(values), step):
        _write_move_rows(conn, values[start:start + step])


@dataclass(slots=True)
class _Move:
    """The usual move: choices appended to the log and the match's next deadline.
    A :class:`~storage.group_commit.BulkWork`: the moves of a group, whatever their
    matches, are written by one multi-row ``INSERT`` into the ``moves`` view
    (migration 003), whose trigger appends each row to the log and sets its
    match's deadline."""

    match_id: int
    rows: list[tuple[Any, ...]]
    deadline_at: float | None
    warned: int
    version: int | None = None
    """The match's version the move was made from (checked), or ``None``: not checked."""
    self_serialised: ClassVar[bool] = True
    """Two moves of one match cannot both be stored whatever the isolation: the
    version check waits for the match row's lock and reads it afresh, and the log's
    keys are unique. So PostgreSQL may commit moves in READ COMMITTED
    (:class:`storage.postgres.db.PostgresDatabase`)."""

    def __reduce__(self) -> tuple[type[_Move], tuple[Any, ...]]:
        # Every move is pickled on its way to the writer process; the generic
        # path for a slotted class takes twice as long.
        return _Move, (self.match_id, self.rows, self.deadline_at, self.warned, self.version)

    def __call__(self, conn: sqlite3.Connection) -> None:
        _write_moves(conn, [self])

    bulk = staticmethod(_write_moves)


def _move_match(conn: sqlite3.Connection, match_id: int, version: int | None) -> None:
    """Bump the match's version, first checking it is still ``version`` (when given):
    :class:`MatchMoved` if another process moved the match since (migration 018)."""
    if version is None:
        conn.execute("UPDATE matches SET version = version + 1 WHERE id = ?", (match_id,))
        return
    moved = conn.execute("UPDATE matches SET version = version + 1 WHERE id = ? AND version = ?"
                         " RETURNING id", (match_id, version)).fetchone()
    if moved is None:
        raise MatchMoved("match moved")


@dataclass(frozen=True, slots=True)
class _CreateLobby:
    """A new lobby with its first seats; returns the match id."""

    game: str
    options: str
    seed: int
    guild_id: int | None
    channel_id: int
    host_id: int
    max_seats: int
    seats: Sequence[SeatRow]
    computer_level: str = "normal"
    self_serialised: ClassVar[bool] = True
    """A new row, its seats and the players' names: the channel's partial unique index
    refuses a second live match whatever the isolation (see :class:`_Move`)."""

    def __call__(self, conn: sqlite3.Connection) -> int:
        cur = conn.execute(
            "INSERT INTO matches (game, options, seed, guild_id, channel_id, host_id,"
            " max_seats, status, created_at, computer_level)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?) RETURNING id",
            (self.game, self.options, self.seed, self.guild_id, self.channel_id,
             self.host_id, self.max_seats, _now(), self.computer_level),
        )
        match_id = int(cur.fetchone()[0])
        _write_seats(conn, match_id, self.seats)
        return match_id


@dataclass(frozen=True, slots=True)
class _SetSeats:
    match_id: int
    seats: Sequence[SeatRow]
    host_id: int | None = None
    version: int | None = None
    self_serialised: ClassVar[bool] = True
    """The seats of one match, behind its version check (see :class:`_Move`)."""

    def __call__(self, conn: sqlite3.Connection) -> None:
        _move_match(conn, self.match_id, self.version)
        _write_seats(conn, self.match_id, self.seats)
        if self.host_id is not None:
            conn.execute("UPDATE matches SET host_id = ? WHERE id = ?",
                         (self.host_id, self.match_id))


@dataclass(frozen=True, slots=True)
class _Start:
    match_id: int
    seats: Sequence[SeatRow]
    deadline_at: float | None
    rows: list[tuple[Any, ...]]
    ante: Ante | None = None
    version: int | None = None

    @property
    def self_serialised(self) -> bool:
        """Behind its version check (see :class:`_Move`), unless it stakes an ante:
        a card staked is a collection's write, which needs SERIALIZABLE."""
        return self.ante is None

    def __call__(self, conn: sqlite3.Connection) -> None:
        _move_match(conn, self.match_id, self.version)
        _write_seats(conn, self.match_id, self.seats)
        conn.execute(
            "UPDATE matches SET status = 'active', started_at = ?, deadline_at = ?,"
            " warned = 0 WHERE id = ?",
            (_now(), self.deadline_at, self.match_id),
        )
        _insert_rows(conn, INSERT_CHOICE, self.rows)
        if self.ante is not None:  # locked from the moment the match starts
            stake_cards_in(conn, self.ante.guild_id, self.match_id, self.ante.stakes,
                           time.time())


@dataclass(frozen=True, slots=True)
class _Record:
    """A move that changes more than the log and the deadline: seats (strikes,
    forfeits), the result of a game that ended, and ratings."""

    match_id: int
    rows: list[tuple[Any, ...]]
    deadline_at: float | None
    warned: int
    seats: Sequence[SeatRow] | None
    result: tuple[str, Sequence[SeatResult]] | None
    rater: Rater | None
    prizes: Sequence[tuple[int, int]] = ()
    """``(guild, user)``: a pack for each, given with the result (one per match)."""
    version: int | None = None

    def __call__(self, conn: sqlite3.Connection) -> None:
        if self.rows:  # the log, the deadline and the version in one statement, as a usual move
            _write_moves(conn, [_Move(self.match_id, self.rows, self.deadline_at, self.warned,
                                      self.version)])
        else:
            _move_match(conn, self.match_id, self.version)
            if self.result is None:
                conn.execute("UPDATE matches SET deadline_at = ?, warned = ? WHERE id = ?",
                             (self.deadline_at, self.warned, self.match_id))
        if self.seats is not None:
            _write_seats(conn, self.match_id, self.seats)
        if self.result is not None:
            _finish(conn, self.match_id, *self.result)
            if self.rater is not None:
                _rate(conn, self.match_id, self.result[1], self.rater)
            _pay_ante(conn, self.match_id, _sole_winner(self.result[1]))
            for guild_id, user_id in self.prizes:
                grant_pack_in(conn, guild_id, user_id, "win", self.match_id, time.time())
            # A tournament game counts for its pairing in the write of its result.
            record_game_in(conn, self.match_id, self.result[1])


@dataclass(frozen=True, slots=True)
class _SetStatus:
    match_id: int
    status: str
    version: int | None = None

    def __call__(self, conn: sqlite3.Connection) -> None:
        _move_match(conn, self.match_id, self.version)
        conn.execute("UPDATE matches SET status = ?, deadline_at = NULL,"
                     " finished_at = COALESCE(finished_at, ?) WHERE id = ?",
                     (self.status, _now(), self.match_id))
        _pay_ante(conn, self.match_id, None)
        game_closed_in(conn, self.match_id, self.status)  # a tournament game counts nothing


def _sole_winner(seats: Sequence[SeatResult]) -> int | None:
    """The person alone in first place, if there is one (else a draw, or a computer)."""
    first = [s for s in seats if s.place == 1]
    if len(first) != 1 or first[0].is_bot:
        return None
    return first[0].user_id


def _pay_ante(conn: sqlite3.Connection, match_id: int, winner: int | None) -> None:
    """Pay a staked ante in the write that ends the match: every copy to the winner
    if they staked one, else (a draw, a cancelled match, a seat the computer took
    over) each back to whoever staked it."""
    if not ante_staked_in(conn, match_id):
        return
    stakers = {row[0] for row in conn.execute(
        "SELECT owner_id FROM ante_copies WHERE match_id = ?", (match_id,))}
    settle_ante_in(conn, match_id, winner if winner in stakers else None, time.time())


def _match(row: sqlite3.Row, seats: list[SeatRow]) -> MatchRow:
    return MatchRow(
        id=row["id"], game=row["game"], options=json.loads(row["options"]), seed=row["seed"],
        guild_id=row["guild_id"], channel_id=row["channel_id"], host_id=row["host_id"],
        max_seats=row["max_seats"], status=row["status"],
        table_message_id=row["table_message_id"], deadline_at=row["deadline_at"],
        warned=bool(row["warned"]), seats=seats, computer_level=row["computer_level"],
        version=row["version"],
    )


def _seat(row: sqlite3.Row) -> SeatRow:
    setup = row["setup"]
    return SeatRow(seat=row["seat"], user_id=row["user_id"], name=row["name"],
                   is_bot=bool(row["is_bot"]), strikes=row["strikes"], state=row["state"],
                   setup=None if setup is None else json.loads(setup), level=row["level"])


def _insert_rows(conn: sqlite3.Connection, head: str, rows: Sequence[Sequence[Any]],
                 tail: str = "") -> None:
    """``head`` (an ``INSERT`` ending in one ``VALUES`` row of ``?``) for every
    row at once, then ``tail``: one statement, where ``executemany`` steps one
    per row."""
    if not rows:
        return
    into, one = head.rsplit(" VALUES ", 1)
    conn.execute(f"{into} VALUES {', '.join([one] * len(rows))}{tail}",
                 [value for row in rows for value in row])


def _write_seats(conn: sqlite3.Connection, match_id: int, seats: Sequence[SeatRow]) -> None:
    conn.execute("DELETE FROM match_seats WHERE match_id = ?", (match_id,))
    _insert_rows(
        conn, "INSERT INTO match_seats (match_id, seat, user_id, name, is_bot, strikes, state,"
        " setup, level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(match_id, s.seat, s.user_id, s.name, int(s.is_bot), s.strikes, s.state,
          None if s.setup is None else json.dumps(s.setup, sort_keys=True), s.level)
         for s in seats],
    )
    stamp = _now()
    _insert_rows(
        conn, "INSERT INTO players (user_id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)",
        [(s.user_id, s.name, stamp, stamp) for s in seats if s.user_id is not None],
        " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
        " last_seen = excluded.last_seen")


def _finish(conn: sqlite3.Connection, match_id: int, reason: str,
            seats: Sequence[SeatResult]) -> None:
    stamp = _now()
    conn.execute(
        "UPDATE matches SET status = 'finished', finished_at = ?, deadline_at = NULL"
        " WHERE id = ?", (stamp, match_id),
    )
    conn.execute("INSERT INTO results (match_id, reason, finished_at) VALUES (?, ?, ?)",
                 (match_id, reason, stamp))
    conn.execute("INSERT INTO results_to_show (match_id) VALUES (?)", (match_id,))
    _insert_rows(
        conn, "INSERT INTO result_seats (match_id, seat, user_id, is_bot, place, score)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, s.seat, s.user_id, int(s.is_bot), s.place, s.score) for s in seats],
    )


def _rate(conn: sqlite3.Connection, match_id: int, seats: Sequence[SeatResult],
          rater: Rater) -> None:
    """Update every player's rating for this match's game and server."""
    match = conn.execute("SELECT guild_id, game FROM matches WHERE id = ?",
                         (match_id,)).fetchone()
    guild_id, game = match["guild_id"], match["game"]
    players = [s for s in seats if s.user_id is not None]
    ids = [s.user_id for s in players]
    rows = conn.execute(
        f"SELECT user_id, mu, sigma, ordinal, games FROM ratings WHERE guild_id = ?"
        f" AND game = ? AND user_id IN ({', '.join('?' * len(ids))})",
        (guild_id, game, *ids)).fetchall()
    known = {row["user_id"]: row for row in rows}
    prior = [(known[u]["mu"], known[u]["sigma"]) if u in known else None for u in ids]
    after = rater.rate(prior, [s.place for s in players])
    stamp = _now()
    ratings, changes = [], []
    for user_id, before, (mu, sigma) in zip(ids, prior, after, strict=True):
        mu0, sigma0 = before or rater.initial()
        new_ordinal = rater.ordinal(mu, sigma)
        ratings.append((guild_id, game, user_id, mu, sigma, new_ordinal, stamp))
        changes.append((match_id, user_id, guild_id, game, mu0, sigma0, mu, sigma,
                        rater.ordinal(mu0, sigma0), new_ordinal))
    _insert_rows(
        conn, "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)", ratings,
        " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, ordinal = excluded.ordinal, games = ratings.games + 1,"
        " updated_at = excluded.updated_at")
    _insert_rows(
        conn, "INSERT INTO rating_changes (match_id, user_id, guild_id, game, mu_before,"
        " sigma_before, mu_after, sigma_after, ordinal_before, ordinal_after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", changes)


@dataclass(frozen=True)
class FinalShowing:
    """What of a finished match's last showing is out while it is queued."""

    result_posted: bool
    """The final table and the result post are in its channel."""
    views_sent: frozenset[int]
    """Seats whose final view reached them by DM (or cannot: closed DMs)."""


class MatchRepository:
    """Reads and writes of matches. Every write is one transaction."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create_lobby(self, *, game: str, options: dict, seed: int, guild_id: int | None,
                           channel_id: int, host_id: int, max_seats: int,
                           seats: Sequence[SeatRow], computer_level: str = "normal") -> int:
        """A new lobby (``computer_level``: the level of the computer players that
        fill its empty seats); raises :class:`ChannelBusy` if the channel has a live
        match."""
        work = _CreateLobby(game, json.dumps(options, sort_keys=True), seed, guild_id,
                            channel_id, host_id, max_seats, list(seats), computer_level)
        try:
            return await self._db.write(work)
        except Exception as exc:
            if unique_violation(exc, "matches", "channel_id"):
                raise ChannelBusy(channel_id) from None
            raise

    async def get(self, match_id: int) -> MatchRow | None:
        """One match with its seats (one read: a process catching up reads it on a
        click it is to answer)."""
        rows = await self._db.fetchall(
            "SELECT m.*, s.seat, s.user_id, s.name, s.is_bot, s.strikes, s.state, s.setup,"
            " s.level FROM matches m LEFT JOIN match_seats s ON s.match_id = m.id"
            " WHERE m.id = ? ORDER BY s.seat", (match_id,))
        if not rows:
            return None
        return _match(rows[0], [_seat(row) for row in rows if row["seat"] is not None])

    async def caught_up(self, match_id: int, since: int
                        ) -> tuple[MatchRow, list[ChoiceRow]] | None:
        """One match with its seats, and its choice log from ``since``: what a process
        that is behind reads to catch up, in one read (one round trip to a server,
        and one snapshot of both)."""
        rows = await self._db.fetchall(
            "SELECT m.*, s.seat, s.user_id, s.name, s.is_bot, s.strikes, s.state, s.setup,"
            " s.level, NULL AS c_seq, NULL AS c_seat, NULL AS c_choice, NULL AS c_source,"
            " NULL AS c_step, NULL AS c_interaction"
            " FROM matches m LEFT JOIN match_seats s ON s.match_id = m.id WHERE m.id = ?"
            " UNION ALL"
            " SELECT m.*, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, c.seq, c.seat,"
            " c.choice, c.source, c.step, c.interaction_id"
            " FROM matches m JOIN match_choices c ON c.match_id = m.id"
            " WHERE m.id = ? AND c.seq >= ?", (match_id, match_id, since))
        if not rows:
            return None
        seats = sorted((_seat(row) for row in rows if row["seat"] is not None),
                       key=lambda seat: seat.seat)
        log = sorted((ChoiceRow(r["c_seq"], r["c_seat"], r["c_choice"], r["c_source"],
                                r["c_step"], r["c_interaction"])
                      for r in rows if r["c_seq"] is not None), key=lambda choice: choice.seq)
        return _match(rows[0], seats), log

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        """The lobby or active match of a channel, if any."""
        row = await self._db.fetchone(
            "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return None if row is None else _match(row, await self.seats(row["id"]))

    async def unfinished(self) -> list[MatchRow]:
        """Every lobby and active match, oldest first (for recovery at start-up)."""
        return await self._with_seats("m.status IN ('lobby', 'active')")

    async def version_of(self, match_id: int) -> int | None:
        """The match's version (docs/clusters.md), or ``None`` if there is no such match."""
        row = await self._db.fetchone("SELECT version FROM matches WHERE id = ?", (match_id,))
        return None if row is None else int(row["version"])

    async def overdue(self, before: float, limit: int) -> list[int]:
        """Active matches whose deadline is at or before ``before``, the most
        overdue first (for processes sharing the store: docs/clusters.md)."""
        rows = await self._db.fetchall(
            "SELECT id FROM matches WHERE status = 'active' AND deadline_at <= ?"
            " ORDER BY deadline_at LIMIT ?", (before, limit))
        return [row["id"] for row in rows]

    async def results_to_show(self) -> list[MatchRow]:
        """Finished matches whose final table and result are not shown yet,
        oldest first (shown at start-up)."""
        return await self._with_seats("m.id IN (SELECT match_id FROM results_to_show)")

    async def result_shown(self, match_id: int) -> None:
        """Everything of the match's last showing is out — its final table and
        result in its channel, its final views by DM — or never can be: it leaves
        the queue."""
        await self._db.execute("DELETE FROM results_to_show WHERE match_id = ?", (match_id,))

    async def result_posted(self, match_id: int) -> None:
        """A queued match's final table and result are in its channel; its final
        views by DM may still be to send."""
        await self._db.execute(
            "UPDATE results_to_show SET result_posted = 1 WHERE match_id = ?", (match_id,))

    async def final_view_sent(self, match_id: int, seat: int) -> None:
        """A queued match's final view reached ``seat`` (or cannot: closed DMs).
        Nothing is kept for a match no longer queued."""
        await self._db.execute(
            "INSERT INTO final_views_sent (match_id, seat) SELECT ?, ?"
            " WHERE EXISTS (SELECT 1 FROM results_to_show WHERE match_id = ?)"
            " ON CONFLICT DO NOTHING",
            (match_id, seat, match_id))

    async def final_showing(self, match_id: int) -> FinalShowing:
        """What of a queued match's last showing is out already."""
        row = await self._db.fetchone(
            "SELECT result_posted FROM results_to_show WHERE match_id = ?", (match_id,))
        seats = await self._db.fetchall(
            "SELECT seat FROM final_views_sent WHERE match_id = ?", (match_id,))
        return FinalShowing(result_posted=bool(row and row["result_posted"]),
                            views_sent=frozenset(r["seat"] for r in seats))

    async def _with_seats(self, where: str) -> list[MatchRow]:
        """The matches ``m`` that ``where`` picks, with their seats, oldest first."""
        rows = await self._db.fetchall(f"SELECT * FROM matches m WHERE {where} ORDER BY id")
        seats_by_match: dict[int, list[SeatRow]] = {row["id"]: [] for row in rows}
        if rows:
            seat_rows = await self._db.fetchall(
                "SELECT s.* FROM match_seats s JOIN matches m ON m.id = s.match_id"
                f" WHERE {where} ORDER BY s.match_id, s.seat"
            )
            for seat_row in seat_rows:
                seats_by_match[seat_row["match_id"]].append(_seat(seat_row))
        return [_match(row, seats_by_match[row["id"]]) for row in rows]

    async def seats(self, match_id: int) -> list[SeatRow]:
        """The seats of a match in seat order."""
        rows = await self._db.fetchall(
            "SELECT * FROM match_seats WHERE match_id = ? ORDER BY seat", (match_id,)
        )
        return [_seat(row) for row in rows]

    async def _move(self, work: Any) -> Any:
        """Run a write that moves a match: :class:`MatchMoved` (nothing stored) if
        it carried a version and another process moved the match since."""
        try:
            return await self._db.write(work)
        except MatchMoved:
            raise
        except Exception as exc:
            if match_moved(exc):
                raise MatchMoved(str(exc)) from None
            raise

    async def set_seats(self, match_id: int, seats: Sequence[SeatRow], *,
                        host_id: int | None = None, version: int | None = None) -> None:
        """Replace the seats of a match (lobby joins and leaves, kicks, strikes),
        and its host when given (the host left the lobby).

        Every write that moves a match takes the ``version`` it was made from
        (``None``: any) and bumps it; :class:`MatchMoved` if the match moved since."""
        await self._move(_SetSeats(match_id, list(seats), host_id, version))

    async def start(self, match_id: int, seats: Sequence[SeatRow], deadline_at: float | None,
                    choices: Sequence[ChoiceRow] = (), *, ante: Ante | None = None,
                    version: int | None = None) -> None:
        """Lobby → active with its final seats, first deadline and any opening choices;
        with ``ante``, its stakes locked in the same transaction (refused, starting
        nothing, with a :class:`~storage.collections.CollectionRefusal` if someone
        has no free copy of their card)."""
        await self._move(_Start(match_id, list(seats), deadline_at,
                                _choice_rows(match_id, choices), ante, version))

    async def set_status(self, match_id: int, status: MatchStatus, *,
                         version: int | None = None) -> None:
        """Cancel or abandon a match (finishing goes through :meth:`record`); an ante
        it staked goes back to whoever staked it, in the same transaction."""
        await self._move(_SetStatus(match_id, status, version))

    async def set_table_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the public table message so it can be edited after a restart."""
        await self._db.execute(
            "UPDATE matches SET table_message_id = ? WHERE id = ?", (message_id, match_id)
        )

    async def set_deadline(self, match_id: int, deadline_at: float | None, warned: bool, *,
                           version: int | None = None) -> None:
        """Move the current step's deadline (re-arming after a restart, the warning flag)."""
        await self._move(_Record(match_id, [], deadline_at, int(warned), None, None, None,
                                 version=version))

    async def record(self, match_id: int, choices: Sequence[ChoiceRow], *,
                     deadline_at: float | None, warned: bool = False,
                     seats: Sequence[SeatRow] | None = None,
                     result: tuple[str, Sequence[SeatResult]] | None = None,
                     rater: Rater | None = None,
                     prizes: Sequence[tuple[int, int]] = (),
                     version: int | None = None) -> None:
        """Commit one move of the match atomically: the choices it appended, the
        next deadline, changed seats (strikes, forfeits) and, when the game ended,
        its result — and, given a ``rater``, the players' new ratings; with the
        result, a staked ante is paid out and each of ``prizes`` (guild, user) is
        given a pack for the win. Returns
        once committed (see :meth:`Database.write`: concurrent matches' moves
        share one transaction, each in its own savepoint). Raises
        :class:`DuplicateInteraction` (and writes nothing) if an interaction's
        choice is already logged; any failure writes nothing."""
        # The usual move (choices and a new deadline) is written in bulk with
        # concurrent matches' moves.
        rows = _choice_rows(match_id, choices)
        work = (_Move(match_id, rows, deadline_at, int(warned), version)
                if seats is None and result is None and rows else
                _Record(match_id, rows, deadline_at, int(warned),
                        None if seats is None else list(seats), result, rater,
                        tuple(prizes), version))
        try:
            await self._move(work)
        except MatchMoved:
            raise
        except Exception as exc:
            if unique_violation(exc, "match_choices", "interaction_id"):
                raise DuplicateInteraction(str(exc)) from None
            raise

    async def choices(self, match_id: int, since: int = 0) -> list[ChoiceRow]:
        """The match's choice log in order (from ``since``: the rows a process that
        is behind has not seen)."""
        rows = await self._db.fetchall(
            "SELECT seq, seat, choice, source, step, interaction_id FROM match_choices"
            " WHERE match_id = ? AND seq >= ? ORDER BY seq", (match_id, since),
        )
        return [ChoiceRow(r["seq"], r["seat"], r["choice"], r["source"], r["step"],
                          r["interaction_id"]) for r in rows]

    async def interaction_logged(self, interaction_id: str) -> bool:
        """True if a choice from this interaction is already in the log."""
        row = await self._db.fetchone(
            "SELECT 1 FROM match_choices WHERE interaction_id = ?", (interaction_id,)
        )
        return row is not None

    async def result(self, match_id: int) -> tuple[str, list[SeatResult]] | None:
        """The stored result of a finished match."""
        row = await self._db.fetchone("SELECT reason FROM results WHERE match_id = ?", (match_id,))
        if row is None:
            return None
        seats = await self._db.fetchall(
            "SELECT * FROM result_seats WHERE match_id = ? ORDER BY seat", (match_id,)
        )
        return row["reason"], [
            SeatResult(s["seat"], s["user_id"], bool(s["is_bot"]), s["place"], s["score"])
            for s in seats
        ]
