"""Arcane Duel collections, built like a bank: copies owned per server, packs with
limited print runs, starters, trades, ante and decks (docs: the collections spec).

Rules this module keeps:

* **One write per ownership change.** Every change of ``copies.owner_id`` is one
  write (a picklable ``work(conn)`` run by the writer process inside its
  ``BEGIN IMMEDIATE`` transaction) that re-checks ownership and locks, moves the
  copies and appends one ``ledger`` row per copy — or raises a
  :class:`CollectionRefusal` saying why, and then nothing of it is stored (the
  writer runs a failing write alone in a savepoint). Nothing else writes owners.
  Writes do nothing but SQL (one may run twice) and answer with the rows they leave,
  read in their own transaction, as JSON-friendly lists (a writer killed after
  committing answers from what it kept as JSON), so a caller needs no second read.
* **Locks.** A copy offered in an open trade or staked in an ante is locked by a
  ``copy_locks`` row; the copy id is its primary key, so it is locked by at most one
  thing. A locked copy cannot be offered, staked or moved except by its lock's owner.
* **Nothing made or lost.** Copies are created only by starters and packs (the
  ledger's creation rows, ``from_owner`` NULL) and never deleted (a trigger refuses);
  the ledger is append-only (triggers). :meth:`CollectionRepository.audit` replays it.

Where the spec is silent, what a bank would do:

* Times are seconds since the epoch given by the caller (``now``): tests drive the clock.
* Starter copies are unlimited; the starter's deck is saved in the same write.
* A print run is created with the size for its rarity the first time the card is
  pulled in a server, and keeps that size (a later ``run_sizes`` does not resize it).
  A rarity missing from ``run_sizes`` has no limited run. Serials count from 1.
* ``open_pack(..., daily_every=...)`` claims the daily pack and opens it in one write,
  so a claim is never spent on a pack that was not stored. ``open_next_pack`` opens a
  given pack (a prize, a rated win) first, oldest first, marking it opened in the write
  that stores its copies (the credit's id is the ledger rows' ref); the daily pack only
  when none waits.
* An offer locks only the offerer's copies (locking the receiver's at offer would let
  anyone lock anyone's cards); the receiver's are checked for ownership at offer and
  locked at acceptance. Accepting extends the expiry to at least
  :data:`CONFIRM_GRACE` seconds after the confirm window opens. Open and accepted
  trades both expire. A trade needs at least one copy; a gift (nothing asked) is fine.
* A trade past its expiry refuses acceptance and confirmation (cancel still closes
  it); :meth:`CollectionRepository.expire_trades` (run it now and then) closes such
  trades and unlocks their copies, and an offer, acceptance or stake that needs a
  copy held by one closes that one first, in its write.
* Repeating an action that already happened (accept, confirm, decline, cancel) does
  nothing and answers as the first time; an action on a trade closed otherwise is
  refused with :class:`TradeClosed`.
* An ante is one stake per match, by any number of players; the winner must be one of
  them. Settling twice is refused (:class:`AnteClosed`). :func:`settle_ante_in` lets
  the write that records a match's result pay the ante in its own transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from storage.errors import StorageError

if TYPE_CHECKING:
    from storage.db import Database

Edition = Literal["unlimited", "limited"]
GotHow = Literal["starter", "pack", "trade", "ante"]
TradeStatus = Literal["open", "accepted", "done", "declined", "cancelled", "expired"]
LIVE_TRADE = ("open", "accepted")
CONFIRM_GRACE = 60.0
"""Seconds an accepted trade stays confirmable after its confirm window opens, at least."""


# -- refusals: plain exceptions with one message, so they pickle across the writer pipe --
class CollectionRefusal(StorageError):
    """A collection change refused; nothing of it is stored."""


class NotOwned(CollectionRefusal):
    """A copy is not (or no longer) owned by the person giving or staking it."""


class Locked(CollectionRefusal):
    """A copy is locked by another trade or ante."""


class TradeClosed(CollectionRefusal):
    """The trade is not open for this action; ``state`` says why, as a code: its status
    (``done``, ``declined``, ``cancelled``, ``expired``, ``accepted``), ``missing`` or
    ``not_accepted`` (a confirm before the receiver accepted)."""

    def __init__(self, message: str, state: str = "") -> None:
        super().__init__(message, state)
        self.state = state


class NotParty(CollectionRefusal):
    """The person is not the party of the trade who may do this."""


class TooEarly(CollectionRefusal):
    """The trade's confirm window has not opened yet; ``seconds_left`` says for how long."""

    def __init__(self, message: str, seconds_left: float = 0.0) -> None:
        super().__init__(message, seconds_left)
        self.seconds_left = seconds_left

    def __str__(self) -> str:
        return str(self.args[0])


class AlreadyClaimed(CollectionRefusal):
    """The starter was claimed, or the daily pack is not due; ``seconds_left`` until it is
    (0 for a starter: never)."""

    def __init__(self, message: str, seconds_left: float = 0.0) -> None:
        super().__init__(message, seconds_left)
        self.seconds_left = seconds_left

    def __str__(self) -> str:
        return str(self.args[0])


class AnteClosed(CollectionRefusal):
    """The match has no ante to settle, or already has one staked or settled."""


class BadRequest(CollectionRefusal):
    """The request itself makes no sense (no copies, a copy twice, a winner who did not stake)."""


class NoPack(CollectionRefusal):
    """No unopened pack is waiting, and the daily pack is not offered."""


class TooMany(CollectionRefusal):
    """Giving these packs would leave more waiting than allowed; ``waiting`` now."""

    def __init__(self, message: str, waiting: int = 0) -> None:
        super().__init__(message, waiting)
        self.waiting = waiting

    def __str__(self) -> str:
        return str(self.args[0])


# -- plain values ------------------------------------------------------------------------
@dataclass(frozen=True)
class CopyLock:
    """What holds a copy: a trade or an ante (``ref`` its trade or match id)."""

    kind: Literal["trade", "ante"]
    ref: int
    locked_at: float


@dataclass(frozen=True)
class Copy:
    """One owned copy of a card.

    >>> Copy(1, 5, "Kindlewhip", "limited", 37, 9, "pack", 0.0).label(500)
    'Kindlewhip #37 of 500'
    """

    id: int
    guild_id: int
    card: str
    edition: Edition
    serial: int | None
    owner_id: int
    got_how: GotHow
    got_at: float
    lock: CopyLock | None = None

    def label(self, run_size: int | None = None) -> str:
        """The card's name, with its serial if limited."""
        if self.serial is None:
            return self.card
        return f"{self.card} #{self.serial}" + (f" of {run_size}" if run_size else "")


@dataclass(frozen=True)
class CardCount:
    """How many copies of a card someone owns, and how many of them no lock holds."""

    card: str
    owned: int
    free: int


@dataclass(frozen=True)
class PrintRun:
    """A card's limited run in a server."""

    guild_id: int
    card: str
    size: int
    printed: int

    @property
    def left(self) -> int:
        """Limited copies still to be pulled."""
        return self.size - self.printed


@dataclass(frozen=True)
class Trade:
    """A trade as stored; ``give`` and ``get`` are copy ids as the offerer sees them."""

    id: int
    guild_id: int
    offerer_id: int
    receiver_id: int
    status: TradeStatus
    created_at: float
    expires_at: float
    accepted_at: float | None
    confirm_opens_at: float | None
    offerer_confirmed: bool
    receiver_confirmed: bool
    give: tuple[int, ...]
    get: tuple[int, ...]


@dataclass(frozen=True)
class Deck:
    """A named deck: card names, one per copy asked for."""

    guild_id: int
    owner_id: int
    name: str
    cards: tuple[str, ...]
    updated_at: float


@dataclass(frozen=True)
class PackCredit:
    """A pack given to someone (a prize, a rated win); ``opened_at`` once opened."""

    id: int
    guild_id: int
    user_id: int
    why: Literal["prize", "win"]
    ref: int | None
    """The organiser who gave it, or the match won."""
    given_at: float
    opened_at: float | None = None


@dataclass(frozen=True)
class OpenedPack:
    """A pack opened by :meth:`CollectionRepository.open_next_pack`."""

    copies: list[Copy]
    credit: PackCredit | None
    """The given pack opened, or ``None``: the daily pack."""
    waiting: int
    """Given packs still unopened."""


@dataclass(frozen=True)
class TradeMessage:
    """Where a trade's offer message is and what it last showed (see
    :meth:`CollectionRepository.show_trade`)."""

    trade_id: int
    channel_id: int
    message_id: int
    shown: str


@dataclass(frozen=True)
class Problem:
    """One thing the audit found wrong."""

    copy_id: int | None
    what: str

    def __str__(self) -> str:
        return f"copy {self.copy_id}: {self.what}" if self.copy_id is not None else self.what


# -- helpers run inside writes ------------------------------------------------------------
def _marks(n: int) -> str:
    return ", ".join("?" * n)


def _create(conn: sqlite3.Connection, guild: int, owner: int, card: str, serial: int | None,
            how: GotHow, ref: int | None, now: float) -> int:
    """A new copy and its creation row in the ledger."""
    copy_id = int(conn.execute(
        "INSERT INTO copies (guild_id, card, edition, serial, owner_id, got_how, got_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (guild, card, "unlimited" if serial is None else "limited", serial, owner, how, now),
    ).fetchone()[0])
    conn.execute("INSERT INTO ledger (guild_id, copy_id, from_owner, to_owner, why, ref, at)"
                 " VALUES (?, ?, NULL, ?, ?, ?, ?)", (guild, copy_id, owner, how, ref, now))
    return copy_id


def _move(conn: sqlite3.Connection, guild: int, copy_id: int, giver: int, taker: int,
          why: GotHow, ref: int, now: float) -> None:
    """The only place an owner changes: guarded by the giver, with its ledger row."""
    changed = conn.execute(
        "UPDATE copies SET owner_id = ?, got_how = ?, got_at = ?"
        " WHERE id = ? AND owner_id = ? AND guild_id = ?",
        (taker, why, now, copy_id, giver, guild)).rowcount
    if changed != 1:  # callers check first; this guards the guard
        raise NotOwned(f"copy {copy_id} is not owned by {giver}")
    conn.execute("INSERT INTO ledger (guild_id, copy_id, from_owner, to_owner, why, ref, at)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?)", (guild, copy_id, giver, taker, why, ref, now))


def _check_owned(conn: sqlite3.Connection, guild: int, owner: int, copy_ids: Sequence[int],
                 free_unless: tuple[str, int] | None = None, check_locks: bool = True) -> None:
    """Refuse unless every copy is ``owner``'s in ``guild`` and (if ``check_locks``) free
    of locks, a lock ``free_unless`` = (kind, ref) excepted."""
    if not copy_ids:
        return
    rows = conn.execute(
        f"SELECT c.id, c.owner_id, c.guild_id, l.kind, l.ref FROM copies c"
        f" LEFT JOIN copy_locks l ON l.copy_id = c.id WHERE c.id IN ({_marks(len(copy_ids))})",
        tuple(copy_ids)).fetchall()
    found = {row["id"]: row for row in rows}
    for copy_id in copy_ids:
        row = found.get(copy_id)
        if row is None or row["guild_id"] != guild or row["owner_id"] != owner:
            raise NotOwned(f"copy {copy_id} is not owned by {owner}")
        if check_locks and row["kind"] is not None \
                and (row["kind"], row["ref"]) != free_unless:
            raise Locked(f"copy {copy_id} is locked by {row['kind']} {row['ref']}")


def _lock(conn: sqlite3.Connection, copy_ids: Iterable[int], kind: str, ref: int,
          now: float) -> None:
    # The primary key refuses a second lock even if a check above were wrong.
    conn.executemany("INSERT INTO copy_locks (copy_id, kind, ref, locked_at) VALUES (?, ?, ?, ?)",
                     [(copy_id, kind, ref, now) for copy_id in copy_ids])


def _distinct(copy_ids: Sequence[int]) -> None:
    if len(set(copy_ids)) != len(copy_ids):
        raise BadRequest("a copy is listed twice")


_COPY_COLUMNS = ("SELECT c.id, c.guild_id, c.card, c.edition, c.serial, c.owner_id, c.got_how,"
                 " c.got_at, l.kind, l.ref, l.locked_at FROM copies c"
                 " LEFT JOIN copy_locks l ON l.copy_id = c.id")
_TRADE_COLUMNS = ("SELECT id, guild_id, offerer_id, receiver_id, status, created_at, expires_at,"
                  " accepted_at, confirm_opens_at, offerer_confirmed, receiver_confirmed"
                  " FROM trades WHERE id = ?")


# Writes answer with the rows they leave, read in their own transaction: a read on the
# reader right after could still see the file as it was (its snapshot may be held by
# another read in progress), and the answer must pickle and survive as JSON.
def _copy_values(conn: sqlite3.Connection, ids: Sequence[int]) -> list[list[object]]:
    if not ids:
        return []
    rows = conn.execute(f"{_COPY_COLUMNS} WHERE c.id IN ({_marks(len(ids))}) ORDER BY c.id",
                        tuple(ids)).fetchall()
    return [list(row) for row in rows]


def _trade_values(conn: sqlite3.Connection, trade_id: int) -> list[object]:
    row = conn.execute(_TRADE_COLUMNS, (trade_id,)).fetchone()
    give, get = _sides(conn, trade_id)
    return [*row, give, get]


# -- the writes ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _ClaimStarter:
    guild: int
    user: int
    deck_name: str
    cards: tuple[str, ...]
    now: float

    def __call__(self, conn: sqlite3.Connection) -> list[list[object]]:
        claimed = conn.execute(
            "INSERT INTO starter_claims (guild_id, user_id, deck, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING", (self.guild, self.user, self.deck_name, self.now)).rowcount
        if not claimed:
            raise AlreadyClaimed(f"{self.user} already claimed a starter here", 0.0)
        ids = [_create(conn, self.guild, self.user, card, None, "starter", None, self.now)
               for card in self.cards]
        _save_deck(conn, self.guild, self.user, self.deck_name, self.cards, self.now)
        return _copy_values(conn, ids)


def _claim_daily(conn: sqlite3.Connection, guild: int, user: int, now: float,
                 every: float) -> None:
    row = conn.execute("SELECT last_at FROM pack_claims WHERE guild_id = ? AND user_id = ?",
                       (guild, user)).fetchone()
    if row is not None and now < row["last_at"] + every:
        left = row["last_at"] + every - now
        raise AlreadyClaimed(f"the next pack is due in {left:.0f} s", left)
    conn.execute("INSERT INTO pack_claims (guild_id, user_id, last_at) VALUES (?, ?, ?)"
                 " ON CONFLICT (guild_id, user_id) DO UPDATE SET last_at = excluded.last_at",
                 (guild, user, now))


@dataclass(frozen=True)
class _ClaimDaily:
    guild: int
    user: int
    now: float
    every: float

    def __call__(self, conn: sqlite3.Connection) -> None:
        _claim_daily(conn, self.guild, self.user, self.now, self.every)


def _print_pack(conn: sqlite3.Connection, guild: int, user: int,
                pulls: Sequence[tuple[str, str]], sizes: Mapping[str, int], ref: int | None,
                now: float) -> list[int]:
    """Make a pack's copies (limited while the card's run lasts); their ids."""
    ids = []
    for card, rarity in pulls:
        conn.execute("INSERT INTO print_runs (guild_id, card, size) VALUES (?, ?, ?)"
                     " ON CONFLICT DO NOTHING", (guild, card, max(0, sizes.get(rarity, 0))))
        # One statement takes the next serial only while the run has copies left:
        # the writer is the only one writing, and the CHECK refuses going past anyway.
        row = conn.execute(
            "UPDATE print_runs SET printed = printed + 1"
            " WHERE guild_id = ? AND card = ? AND printed < size RETURNING printed",
            (guild, card)).fetchone()
        ids.append(_create(conn, guild, user, card, None if row is None else int(row[0]),
                           "pack", ref, now))
    return ids


@dataclass(frozen=True)
class _OpenPack:
    guild: int
    user: int
    pulls: tuple[tuple[str, str], ...]
    run_sizes: tuple[tuple[str, int], ...]
    now: float
    pack_ref: int | None
    daily_every: float | None

    def __call__(self, conn: sqlite3.Connection) -> list[list[object]]:
        if self.daily_every is not None:
            _claim_daily(conn, self.guild, self.user, self.now, self.daily_every)
        ids = _print_pack(conn, self.guild, self.user, self.pulls, dict(self.run_sizes),
                          self.pack_ref, self.now)
        return _copy_values(conn, ids)


_CREDIT_COLUMNS = "SELECT id, guild_id, user_id, why, ref, given_at, opened_at FROM pack_credits"
_WAITING = " WHERE guild_id = ? AND user_id = ? AND opened_at IS NULL"


def _waiting(conn: sqlite3.Connection, guild: int, user: int) -> int:
    return int(conn.execute(f"SELECT COUNT(*) FROM pack_credits{_WAITING}",
                            (guild, user)).fetchone()[0])


@dataclass(frozen=True)
class _OpenNextPack:
    """Open the person's oldest unopened pack, marked opened in the write that stores its
    copies; with none waiting, the daily pack (if ``daily_every``), else :class:`NoPack`."""

    guild: int
    user: int
    pulls: tuple[tuple[str, str], ...]
    run_sizes: tuple[tuple[str, int], ...]
    now: float
    daily_every: float | None

    def __call__(self, conn: sqlite3.Connection) -> dict[str, object]:
        credit = conn.execute(f"{_CREDIT_COLUMNS}{_WAITING} ORDER BY id LIMIT 1",
                              (self.guild, self.user)).fetchone()
        if credit is not None:
            # The guard on opened_at makes a second opening of one credit impossible.
            conn.execute("UPDATE pack_credits SET opened_at = ? WHERE id = ? AND opened_at IS NULL",
                         (self.now, credit["id"]))
            ref: int | None = int(credit["id"])
        elif self.daily_every is not None:
            _claim_daily(conn, self.guild, self.user, self.now, self.daily_every)
            ref = None
        else:
            raise NoPack(f"{self.user} has no pack waiting and the daily pack is off")
        ids = _print_pack(conn, self.guild, self.user, self.pulls, dict(self.run_sizes), ref,
                          self.now)
        opened = None if credit is None else [*list(credit)[:6], self.now]
        return {"copies": _copy_values(conn, ids), "credit": opened,
                "waiting": _waiting(conn, self.guild, self.user)}


@dataclass(frozen=True)
class _GivePacks:
    guild: int
    user: int
    count: int
    giver: int
    now: float
    most_waiting: int

    def __call__(self, conn: sqlite3.Connection) -> int:
        if not 1 <= self.count <= self.most_waiting:
            raise BadRequest(f"give 1 to {self.most_waiting} packs, not {self.count}")
        waiting = _waiting(conn, self.guild, self.user)
        if waiting + self.count > self.most_waiting:
            raise TooMany(f"{self.user} has {waiting} packs waiting", waiting)
        for _ in range(self.count):
            grant_pack_in(conn, self.guild, self.user, "prize", self.giver, self.now)
        return waiting + self.count


@dataclass(frozen=True)
class _OfferTrade:
    guild: int
    offerer: int
    receiver: int
    give: tuple[int, ...]
    get: tuple[int, ...]
    now: float
    expires_at: float

    def __call__(self, conn: sqlite3.Connection) -> list[object]:
        if self.offerer == self.receiver:
            raise BadRequest("a trade needs two people")
        if not self.give and not self.get:
            raise BadRequest("a trade needs at least one copy")
        _distinct(self.give + self.get)
        # A lapsed offer that no sweep has closed yet does not hold its copies.
        _expire_due(conn, self.now, self.give)
        _check_owned(conn, self.guild, self.offerer, self.give)
        # The receiver's copies are locked only when they accept: here, only whose they are.
        _check_owned(conn, self.guild, self.receiver, self.get, check_locks=False)
        trade_id = int(conn.execute(
            "INSERT INTO trades (guild_id, offerer_id, receiver_id, created_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?) RETURNING id",
            (self.guild, self.offerer, self.receiver, self.now, self.expires_at)).fetchone()[0])
        conn.executemany("INSERT INTO trade_copies (trade_id, copy_id, side) VALUES (?, ?, ?)",
                         [(trade_id, c, "give") for c in self.give]
                         + [(trade_id, c, "get") for c in self.get])
        _lock(conn, self.give, "trade", trade_id, self.now)
        return _trade_values(conn, trade_id)


def _live_trade(conn: sqlite3.Connection, trade_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM trades WHERE id = ?", (trade_id,)).fetchone()
    if row is None:
        raise TradeClosed(f"there is no trade {trade_id}", "missing")
    return row


def _sides(conn: sqlite3.Connection, trade_id: int) -> tuple[list[int], list[int]]:
    rows = conn.execute("SELECT copy_id, side FROM trade_copies WHERE trade_id = ?"
                        " ORDER BY copy_id", (trade_id,)).fetchall()
    return ([r["copy_id"] for r in rows if r["side"] == "give"],
            [r["copy_id"] for r in rows if r["side"] == "get"])


def _refuse_closed(trade: sqlite3.Row, now: float) -> None:
    if trade["status"] not in LIVE_TRADE:
        raise TradeClosed(f"trade {trade['id']} is {trade['status']}", trade["status"])
    if now >= trade["expires_at"]:
        raise TradeClosed(f"trade {trade['id']} has expired", "expired")


@dataclass(frozen=True)
class _AcceptTrade:
    trade: int
    receiver: int
    now: float
    confirm_after: float

    def __call__(self, conn: sqlite3.Connection) -> list[object]:
        trade = _live_trade(conn, self.trade)
        if trade["receiver_id"] != self.receiver:
            raise NotParty(f"only the receiver accepts trade {self.trade}")
        if trade["status"] == "accepted":
            return _trade_values(conn, self.trade)  # a replayed click: already done once
        _refuse_closed(trade, self.now)
        give, get = _sides(conn, self.trade)
        _expire_due(conn, self.now, get)
        _check_owned(conn, trade["guild_id"], trade["offerer_id"], give, ("trade", self.trade))
        _check_owned(conn, trade["guild_id"], self.receiver, get, ("trade", self.trade))
        _lock(conn, get, "trade", self.trade, self.now)
        opens = self.now + self.confirm_after
        conn.execute("UPDATE trades SET status = 'accepted', accepted_at = ?,"
                     " confirm_opens_at = ?, expires_at = CASE WHEN expires_at > ?"
                     " THEN expires_at ELSE ? END WHERE id = ?",
                     (self.now, opens, opens + CONFIRM_GRACE, opens + CONFIRM_GRACE,
                      self.trade))
        return _trade_values(conn, self.trade)


def _unlock_trade(conn: sqlite3.Connection, trade_id: int) -> None:
    conn.execute("DELETE FROM copy_locks WHERE kind = 'trade' AND ref = ?", (trade_id,))


@dataclass(frozen=True)
class _ConfirmTrade:
    trade: int
    user: int
    now: float

    def __call__(self, conn: sqlite3.Connection) -> list[object]:
        trade = _live_trade(conn, self.trade)
        if self.user == trade["offerer_id"]:
            column, mine, theirs = "offerer_confirmed", "offerer_confirmed", "receiver_confirmed"
        elif self.user == trade["receiver_id"]:
            column, mine, theirs = "receiver_confirmed", "receiver_confirmed", "offerer_confirmed"
        else:
            raise NotParty(f"{self.user} is not a party of trade {self.trade}")
        if trade["status"] == "done":
            return _trade_values(conn, self.trade)  # a replayed confirm: the swap happened once
        if trade["status"] == "open":
            raise TradeClosed(f"trade {self.trade} is not accepted yet", "not_accepted")
        _refuse_closed(trade, self.now)
        if self.now < trade["confirm_opens_at"]:
            left = trade["confirm_opens_at"] - self.now
            raise TooEarly(f"the confirm window opens in {left:.1f} s", left)
        if trade[mine]:
            return _trade_values(conn, self.trade)  # a second press: nothing more
        conn.execute(f"UPDATE trades SET {column} = 1 WHERE id = ?", (self.trade,))
        if not trade[theirs]:
            return _trade_values(conn, self.trade)
        _swap(conn, trade, self.now)
        return _trade_values(conn, self.trade)


def _swap(conn: sqlite3.Connection, trade: sqlite3.Row, now: float) -> None:
    """Move every copy of an accepted trade both confirmed, after re-checking each is
    still its giver's and locked for this trade."""
    trade_id, guild = trade["id"], trade["guild_id"]
    give, get = _sides(conn, trade_id)
    offerer, receiver = trade["offerer_id"], trade["receiver_id"]
    for giver, copies in ((offerer, give), (receiver, get)):
        _check_owned(conn, guild, giver, copies, ("trade", trade_id))
        locked = conn.execute(
            f"SELECT COUNT(*) FROM copy_locks WHERE kind = 'trade' AND ref = ?"
            f" AND copy_id IN ({_marks(len(copies))})", (trade_id, *copies)).fetchone()[0]
        if locked != len(copies):
            raise Locked(f"a copy of trade {trade_id} is no longer locked for it")
    for copy_id in give:
        _move(conn, guild, copy_id, offerer, receiver, "trade", trade_id, now)
    for copy_id in get:
        _move(conn, guild, copy_id, receiver, offerer, "trade", trade_id, now)
    _unlock_trade(conn, trade_id)
    conn.execute("UPDATE trades SET status = 'done', closed_at = ? WHERE id = ?", (now, trade_id))


@dataclass(frozen=True)
class _CloseTrade:
    """Decline (the receiver), cancel (either party): the trade closes, its copies unlock."""

    trade: int
    user: int
    status: Literal["declined", "cancelled"]
    now: float

    def __call__(self, conn: sqlite3.Connection) -> list[object]:
        trade = _live_trade(conn, self.trade)
        allowed = ((trade["receiver_id"],) if self.status == "declined"
                   else (trade["offerer_id"], trade["receiver_id"]))
        if self.user not in allowed:
            raise NotParty(f"{self.user} may not do that to trade {self.trade}")
        if trade["status"] == self.status:
            return _trade_values(conn, self.trade)  # a replayed click
        if trade["status"] not in LIVE_TRADE:
            raise TradeClosed(f"trade {self.trade} is {trade['status']}", trade["status"])
        _unlock_trade(conn, self.trade)
        conn.execute("UPDATE trades SET status = ?, closed_at = ? WHERE id = ?",
                     (self.status, self.now, self.trade))
        return _trade_values(conn, self.trade)


def _expire_due(conn: sqlite3.Connection, now: float,
                copy_ids: Sequence[int] | None = None) -> list[int]:
    """Expire the live trades due by ``now`` (only those locking one of ``copy_ids``,
    if given), unlocking their copies; their ids."""
    if copy_ids is None:
        ids = [row[0] for row in conn.execute(
            "SELECT id FROM trades WHERE status IN ('open', 'accepted') AND expires_at <= ?",
            (now,))]
    elif copy_ids:
        ids = [row[0] for row in conn.execute(
            f"SELECT DISTINCT t.id FROM copy_locks l JOIN trades t ON t.id = l.ref"
            f" WHERE l.kind = 'trade' AND l.copy_id IN ({_marks(len(copy_ids))})"
            f" AND t.status IN ('open', 'accepted') AND t.expires_at <= ?",
            (*copy_ids, now))]
    else:
        return []
    for trade_id in ids:
        _unlock_trade(conn, trade_id)
    conn.executemany("UPDATE trades SET status = 'expired', closed_at = ? WHERE id = ?",
                     [(now, trade_id) for trade_id in ids])
    return ids


@dataclass(frozen=True)
class _ExpireTrades:
    now: float

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        return _expire_due(conn, self.now)


@dataclass(frozen=True)
class _StakeAnte:
    guild: int
    match: int
    stakes: tuple[tuple[int, int], ...]
    now: float

    def __call__(self, conn: sqlite3.Connection) -> None:
        if not self.stakes:
            raise BadRequest("an ante needs at least one copy")
        _distinct([copy_id for _, copy_id in self.stakes])
        made = conn.execute("INSERT INTO antes (match_id, guild_id, staked_at) VALUES (?, ?, ?)"
                            " ON CONFLICT DO NOTHING", (self.match, self.guild, self.now)).rowcount
        if not made:
            raise AnteClosed(f"match {self.match} already has an ante")
        _expire_due(conn, self.now, [copy_id for _, copy_id in self.stakes])
        for owner, copy_id in self.stakes:
            _check_owned(conn, self.guild, owner, [copy_id])
        conn.executemany("INSERT INTO ante_copies (match_id, copy_id, owner_id) VALUES (?, ?, ?)",
                         [(self.match, copy_id, owner) for owner, copy_id in self.stakes])
        _lock(conn, [copy_id for _, copy_id in self.stakes], "ante", self.match, self.now)


def stake_cards_in(conn: sqlite3.Connection, guild: int, match: int,
                   stakes: Sequence[tuple[int, str]], now: float) -> list[int]:
    """Stake ``match``'s ante inside the caller's write (the one that starts it): for
    each ``(owner, card)`` a free copy the owner has of that card, unlimited first,
    then the highest serial (the low serials collectors prize are the last to go).
    Refuses (:class:`NotOwned`) if someone has no free copy of their card. Returns
    the copies staked, in the order asked."""
    chosen: list[int] = []
    for owner, card in stakes:
        row = conn.execute(
            "SELECT c.id FROM copies c LEFT JOIN copy_locks l ON l.copy_id = c.id"
            " WHERE c.guild_id = ? AND c.owner_id = ? AND c.card = ? AND l.copy_id IS NULL"
            + (f" AND c.id NOT IN ({_marks(len(chosen))})" if chosen else "")
            + " ORDER BY c.serial IS NOT NULL, c.serial DESC LIMIT 1",
            (guild, owner, card, *chosen)).fetchone()
        if row is None:
            raise NotOwned(f"{owner} has no free copy of {card} to stake")
        chosen.append(int(row[0]))
    _StakeAnte(guild, match, tuple((owner, copy_id) for (owner, _), copy_id
                                   in zip(stakes, chosen, strict=True)), now)(conn)
    return chosen


@dataclass(frozen=True)
class _StakeCards:
    guild: int
    match: int
    stakes: tuple[tuple[int, str], ...]
    now: float

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        return stake_cards_in(conn, self.guild, self.match, self.stakes, self.now)


def ante_staked_in(conn: sqlite3.Connection, match: int) -> bool:
    """Whether ``match`` has an ante staked and not yet paid out."""
    return conn.execute("SELECT 1 FROM antes WHERE match_id = ? AND status = 'staked'",
                        (match,)).fetchone() is not None


def grant_pack_in(conn: sqlite3.Connection, guild: int, user: int, why: str,
                  ref: int | None, now: float) -> int | None:
    """Give ``user`` an unopened pack inside the caller's write; its id, or ``None``
    if this win's pack was already given (one per match won)."""
    if why not in ("prize", "win"):
        raise BadRequest(f"a pack is given as a prize or for a win, not {why!r}")
    row = conn.execute("INSERT INTO pack_credits (guild_id, user_id, why, ref, given_at)"
                       " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                       (guild, user, why, ref, now)).fetchone()
    return None if row is None else int(row[0])


def settle_ante_in(conn: sqlite3.Connection, match: int, winner: int | None,
                   now: float) -> list[int]:
    """Pay ``match``'s ante inside the caller's write: every staked copy to ``winner``
    (``None``, a draw: each stays with its owner), with ledger rows; unlocks them.
    Returns the copies that changed owner. For the write that records the result."""
    ante = conn.execute("SELECT * FROM antes WHERE match_id = ?", (match,)).fetchone()
    if ante is None or ante["status"] != "staked":
        raise AnteClosed(f"match {match} has no ante to settle")
    staked = conn.execute("SELECT copy_id, owner_id FROM ante_copies WHERE match_id = ?"
                          " ORDER BY copy_id", (match,)).fetchall()
    if winner is not None and winner not in {row["owner_id"] for row in staked}:
        raise BadRequest(f"{winner} staked nothing in match {match}")
    moved = []
    for row in staked:
        _check_owned(conn, ante["guild_id"], row["owner_id"], [row["copy_id"]], ("ante", match))
        if winner is not None and row["owner_id"] != winner:
            _move(conn, ante["guild_id"], row["copy_id"], row["owner_id"], winner, "ante",
                  match, now)
            moved.append(row["copy_id"])
    conn.execute("DELETE FROM copy_locks WHERE kind = 'ante' AND ref = ?", (match,))
    conn.execute("UPDATE antes SET status = 'settled', winner_id = ?, settled_at = ?"
                 " WHERE match_id = ?", (winner, now, match))
    return moved


@dataclass(frozen=True)
class _SettleAnte:
    match: int
    winner: int | None
    now: float

    def __call__(self, conn: sqlite3.Connection) -> list[int]:
        return settle_ante_in(conn, self.match, self.winner, self.now)


def _save_deck(conn: sqlite3.Connection, guild: int, owner: int, name: str,
               cards: Sequence[str], now: float) -> None:
    # Names ignore case (migration 010): the deck of that name in any case is replaced,
    # and takes the name as given now.
    listed = json.dumps(list(cards))
    if not conn.execute("UPDATE decks SET name = ?, cards = ?, updated_at = ?"
                        " WHERE guild_id = ? AND owner_id = ? AND name = ? COLLATE NOCASE",
                        (name, listed, now, guild, owner, name)).rowcount:
        conn.execute("INSERT INTO decks (guild_id, owner_id, name, cards, updated_at)"
                     " VALUES (?, ?, ?, ?, ?)", (guild, owner, name, listed, now))


@dataclass(frozen=True)
class _SaveDeck:
    guild: int
    owner: int
    name: str
    cards: tuple[str, ...]
    now: float

    def __call__(self, conn: sqlite3.Connection) -> None:
        _save_deck(conn, self.guild, self.owner, self.name, self.cards, self.now)


@dataclass(frozen=True)
class _DeleteDeck:
    guild: int
    owner: int
    name: str

    def __call__(self, conn: sqlite3.Connection) -> bool:
        return conn.execute("DELETE FROM decks WHERE guild_id = ? AND owner_id = ?"
                            " AND name = ? COLLATE NOCASE",
                            (self.guild, self.owner, self.name)).rowcount > 0


@dataclass(frozen=True)
class _ShowTrade:
    trade: int
    channel: int
    message: int
    shown: str
    settled: bool

    def __call__(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO trade_messages (trade_id, channel_id, message_id, shown, settled)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (trade_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " shown = excluded.shown, settled = excluded.settled",
            (self.trade, self.channel, self.message, self.shown, int(self.settled)))


# -- reading ------------------------------------------------------------------------------
def _copy(row: Sequence[Any]) -> Copy:
    """A copy from its :data:`_COPY_COLUMNS` (a row, or a write's answer)."""
    (copy_id, guild, card, edition, serial, owner, how, at, kind, ref, locked_at) = row
    lock = None if kind is None else CopyLock(kind, ref, locked_at)
    return Copy(copy_id, guild, card, edition, serial, owner, how, at, lock)


def _trade(values: Sequence[Any]) -> Trade:
    """A trade from its :data:`_TRADE_COLUMNS` and its sides (a write's answer)."""
    (trade_id, guild, offerer, receiver, status, created, expires, accepted, opens,
     offerer_confirmed, receiver_confirmed, give, get) = values
    return Trade(trade_id, guild, offerer, receiver, status, created, expires, accepted, opens,
                 bool(offerer_confirmed), bool(receiver_confirmed), tuple(give), tuple(get))


_AUDIT = """
SELECT 'copy' AS t, id AS a, owner_id AS b, NULL AS c, card AS d, serial AS e,
       NULL AS k, NULL AS s
  FROM copies WHERE guild_id = :g
UNION ALL
SELECT 'ledger', copy_id, from_owner, to_owner, why, id, NULL, NULL
  FROM ledger WHERE guild_id = :g
UNION ALL
SELECT 'lock', l.copy_id, NULL, l.ref,
       CASE l.kind WHEN 'trade' THEN (SELECT status FROM trades WHERE id = l.ref)
                   ELSE (SELECT status FROM antes WHERE match_id = l.ref) END,
       NULL, l.kind,
       CASE l.kind WHEN 'trade' THEN (SELECT side FROM trade_copies
                                      WHERE trade_id = l.ref AND copy_id = l.copy_id)
                   ELSE (SELECT 'staked' FROM ante_copies
                         WHERE match_id = l.ref AND copy_id = l.copy_id) END
  FROM copy_locks l JOIN copies c ON c.id = l.copy_id WHERE c.guild_id = :g
UNION ALL
SELECT 'held', tc.copy_id, NULL, t.id, t.status, NULL, 'trade', tc.side
  FROM trades t JOIN trade_copies tc ON tc.trade_id = t.id
  WHERE t.guild_id = :g AND t.status IN ('open', 'accepted')
UNION ALL
SELECT 'held', ac.copy_id, NULL, a.match_id, a.status, NULL, 'ante', 'staked'
  FROM antes a JOIN ante_copies ac ON ac.match_id = a.match_id
  WHERE a.guild_id = :g AND a.status = 'staked'
UNION ALL
SELECT 'run', NULL, size, printed, card, NULL, NULL, NULL FROM print_runs WHERE guild_id = :g
"""
"""Everything the audit looks at, read by one statement so it is one snapshot even
while writes go on. Each column holds one type (PostgreSQL's UNION asks it): numbers
in ``a`` … ``c`` and ``e``, text in ``d``, a lock's kind in ``k`` and its side in ``s``."""


def _audit(rows: Sequence[sqlite3.Row]) -> list[Problem]:
    problems: list[Problem] = []
    owners: dict[int, int] = {}
    cards: dict[int, tuple[str, int | None]] = {}
    replayed: dict[int, int] = {}
    for row in rows:
        if row["t"] == "copy":
            owners[row["a"]] = row["b"]
            cards[row["a"]] = (row["d"], row["e"])
    for row in sorted((r for r in rows if r["t"] == "ledger"), key=lambda r: r["e"]):
        copy_id, before, after, why, row_id = row["a"], row["b"], row["c"], row["d"], row["e"]
        if copy_id not in owners:
            problems.append(Problem(copy_id, f"ledger row {row_id} is for a copy not here"))
        if before is None:
            if copy_id in replayed:
                problems.append(Problem(copy_id, f"ledger row {row_id} creates it again"))
        elif copy_id not in replayed:
            problems.append(Problem(copy_id, f"ledger row {row_id} ({why}) moves it before"
                                             " any row creates it"))
        elif replayed[copy_id] != before:
            problems.append(Problem(copy_id, f"ledger row {row_id} ({why}) takes it from"
                                             f" {before}, but {replayed[copy_id]} owned it"))
        replayed[copy_id] = after
    for copy_id, owner in owners.items():
        if copy_id not in replayed:
            problems.append(Problem(copy_id, "no ledger row creates it"))
        elif replayed[copy_id] != owner:
            problems.append(Problem(copy_id, f"owned by {owner}, but the ledger says"
                                             f" {replayed[copy_id]}"))
    locks = {row["a"]: row for row in rows if row["t"] == "lock"}
    for copy_id, lock in locks.items():
        kind, ref, status, side = lock["k"], lock["c"], lock["d"], lock["s"]
        if side is None:
            problems.append(Problem(copy_id, f"locked by {kind} {ref}, which does not hold it"))
        elif status not in ("open", "accepted", "staked"):
            problems.append(Problem(copy_id, f"locked by {kind} {ref}, which is {status}"))
    for held in (row for row in rows if row["t"] == "held"):
        copy_id, kind, ref, status, side = held["a"], held["k"], held["c"], held["d"], held["s"]
        lock = locks.get(copy_id)
        must = not (kind == "trade" and status == "open" and side == "get")
        if must and (lock is None or (lock["k"], lock["c"]) != (kind, ref)):
            problems.append(Problem(copy_id, f"{kind} {ref} ({status}) holds it unlocked"))
    serials: dict[str, list[int]] = {}
    for card, serial in cards.values():
        if serial is not None:
            serials.setdefault(card, []).append(serial)
    runs = {row["d"]: (row["b"], row["c"]) for row in rows if row["t"] == "run"}
    for card, numbers in serials.items():
        size, printed = runs.get(card, (0, 0))
        if sorted(numbers) != list(range(1, printed + 1)) or printed > size:
            problems.append(Problem(None, f"{card}: serials {len(numbers)} for a run of"
                                          f" {printed} printed of {size}"))
    for card, (_, printed) in runs.items():
        if printed and card not in serials:
            problems.append(Problem(None, f"{card}: {printed} printed, no limited copy"))
    return problems


class CollectionRepository:
    """Copies, packs, trades, ante and decks of Arcane Duel, per server."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _one(self, sql: str, params: tuple = ()) -> sqlite3.Row | None:
        # fetchall, not Database.fetchone: one call on the reader's thread, so no other
        # read runs while this statement is open and holds the reader's snapshot.
        rows = await self.db.fetchall(sql, params)
        return rows[0] if rows else None

    # -- getting cards
    async def claim_starter(self, guild: int, user: int, deck_name: str, cards: Sequence[str],
                            now: float) -> list[Copy]:
        """Give ``user`` the starter ``cards`` (once per server) and save them as the deck
        ``deck_name``; raises :class:`AlreadyClaimed` the second time."""
        rows = await self.db.write(_ClaimStarter(guild, user, deck_name, tuple(cards), now))
        return [_copy(row) for row in rows]

    async def claim_daily_pack(self, guild: int, user: int, now: float,
                               every_seconds: float = 86400) -> None:
        """Record the daily pack claim; :class:`AlreadyClaimed` (with ``seconds_left``) if
        the last was less than ``every_seconds`` ago. To claim and open in one write, use
        :meth:`open_pack` with ``daily_every``."""
        await self.db.write(_ClaimDaily(guild, user, now, every_seconds))

    async def open_pack(self, guild: int, user: int, pulls: Sequence[tuple[str, str]],
                        run_sizes: Mapping[str, int], now: float, pack_ref: int | None = None,
                        *, daily_every: float | None = None) -> list[Copy]:
        """Make the pack's copies for ``user``, one per ``(card, rarity)`` pulled, in
        order: limited with the next serial while the card's run has copies left (the
        run is made with ``run_sizes[rarity]`` on first use), else unlimited. With
        ``daily_every``, the daily claim is made in the same write."""
        rows = await self.db.write(_OpenPack(
            guild, user, tuple((card, rarity) for card, rarity in pulls),
            tuple(run_sizes.items()), now, pack_ref, daily_every))
        return [_copy(row) for row in rows]

    async def open_next_pack(self, guild: int, user: int, pulls: Sequence[tuple[str, str]],
                             run_sizes: Mapping[str, int], now: float, *,
                             daily_every: float | None) -> OpenedPack:
        """Open ``user``'s oldest unopened given pack (marked opened in the write that
        stores its copies, the credit's id as the ledger's ref); with none waiting, claim
        and open the daily pack when ``daily_every`` is given (:class:`AlreadyClaimed`
        if it is not due), else refuse with :class:`NoPack`."""
        answer = await self.db.write(_OpenNextPack(
            guild, user, tuple((card, rarity) for card, rarity in pulls),
            tuple(run_sizes.items()), now, daily_every))
        credit = answer["credit"]
        return OpenedPack([_copy(row) for row in answer["copies"]],
                          None if credit is None else PackCredit(*credit), int(answer["waiting"]))

    async def give_packs(self, guild: int, user: int, count: int, giver: int, now: float,
                         most_waiting: int = 100) -> int:
        """Give ``user`` ``count`` unopened prize packs (``giver`` is kept as their ref);
        :class:`TooMany` if more than ``most_waiting`` would then wait. Returns how many
        wait now."""
        return int(await self.db.write(_GivePacks(guild, user, count, giver, now,
                                                  most_waiting)))

    async def packs_waiting(self, guild: int, user: int) -> list[PackCredit]:
        """``user``'s unopened packs here, oldest first."""
        rows = await self.db.fetchall(f"{_CREDIT_COLUMNS}{_WAITING} ORDER BY id", (guild, user))
        return [PackCredit(*row) for row in rows]

    async def last_daily(self, guild: int, user: int) -> float | None:
        """When ``user`` last claimed the daily pack here, or ``None``."""
        row = await self._one("SELECT last_at FROM pack_claims WHERE guild_id = ? AND user_id = ?",
                              (guild, user))
        return None if row is None else float(row[0])

    # -- trades
    async def offer_trade(self, guild: int, offerer: int, receiver: int,
                          give_copy_ids: Sequence[int], get_copy_ids: Sequence[int], now: float,
                          expires_after: float = 900) -> Trade:
        """Offer ``give`` (the offerer's copies, locked now) for ``get`` (the receiver's)."""
        return _trade(await self.db.write(_OfferTrade(
            guild, offerer, receiver, tuple(give_copy_ids), tuple(get_copy_ids), now,
            now + expires_after)))

    async def accept_trade(self, trade: int, receiver: int, now: float,
                           confirm_after: float = 5) -> Trade:
        """The receiver accepts: their copies are locked and the confirm window opens
        ``confirm_after`` seconds from ``now``. Accepting again does nothing."""
        return _trade(await self.db.write(_AcceptTrade(trade, receiver, now, confirm_after)))

    async def confirm_trade(self, trade: int, user: int, now: float) -> Trade:
        """``user`` confirms (once the window is open); the second confirmation swaps
        every copy in the same write. Confirming again does nothing."""
        return _trade(await self.db.write(_ConfirmTrade(trade, user, now)))

    async def decline_trade(self, trade: int, receiver: int, now: float) -> Trade:
        """The receiver declines; every copy unlocks."""
        return _trade(await self.db.write(_CloseTrade(trade, receiver, "declined", now)))

    async def cancel_trade(self, trade: int, user: int, now: float) -> Trade:
        """Either party cancels; every copy unlocks."""
        return _trade(await self.db.write(_CloseTrade(trade, user, "cancelled", now)))

    async def expire_trades(self, now: float) -> list[int]:
        """Expire every open or accepted trade due by ``now`` (any server), unlocking
        their copies; returns their ids."""
        return list(await self.db.write(_ExpireTrades(now)))

    async def trade(self, trade_id: int) -> Trade | None:
        """A trade with its copies, or ``None``."""
        rows = await self.db.fetchall(_TRADE_COLUMNS, (trade_id,))
        if not rows:
            return None
        sides = await self.db.fetchall("SELECT copy_id, side FROM trade_copies"
                                       " WHERE trade_id = ? ORDER BY copy_id", (trade_id,))
        return _trade([*rows[0], [r["copy_id"] for r in sides if r["side"] == "give"],
                       [r["copy_id"] for r in sides if r["side"] == "get"]])

    async def live_trades(self, guild: int, user: int) -> list[Trade]:
        """``user``'s open and accepted trades here (either side), oldest first."""
        rows = await self.db.fetchall(
            "SELECT id FROM trades WHERE guild_id = ? AND status IN ('open', 'accepted')"
            " AND (offerer_id = ? OR receiver_id = ?) ORDER BY id", (guild, user, user))
        found = [await self.trade(row[0]) for row in rows]
        return [trade for trade in found if trade is not None]

    async def show_trade(self, trade: int, channel: int, message: int, shown: str,
                         settled: bool) -> None:
        """Remember that ``trade``'s offer message (``channel``, ``message``) now shows
        ``shown``; ``settled`` once that is a closed trade (never edited again)."""
        await self.db.write(_ShowTrade(trade, channel, message, shown, settled))

    async def trade_message(self, trade: int) -> TradeMessage | None:
        """Where ``trade``'s offer message is, and what it last showed."""
        row = await self._one("SELECT trade_id, channel_id, message_id, shown"
                              " FROM trade_messages WHERE trade_id = ?", (trade,))
        return None if row is None else TradeMessage(*row)

    async def unsettled_messages(self, limit: int = 50) -> list[tuple[TradeMessage, Trade]]:
        """Offer messages not yet showing a closed trade, with their trades: the
        caller compares what each shows with its trade and edits those behind."""
        rows = await self.db.fetchall(
            "SELECT trade_id, channel_id, message_id, shown FROM trade_messages"
            " WHERE settled = 0 ORDER BY trade_id LIMIT ?", (limit,))
        found = []
        for row in rows:
            trade = await self.trade(row[0])
            if trade is not None:
                found.append((TradeMessage(*row), trade))
        return found

    # -- ante
    async def stake_ante(self, guild: int, match: int, stakes: Sequence[tuple[int, int]],
                         now: float | None = None) -> None:
        """Lock each ``(owner, copy id)`` for ``match``'s ante: :class:`NotOwned` or
        :class:`Locked` if one is not its owner's or already locked."""
        await self.db.write(_StakeAnte(guild, match, tuple((int(o), int(c)) for o, c in stakes),
                                       time.time() if now is None else now))

    async def stake_cards(self, guild: int, match: int, stakes: Sequence[tuple[int, str]],
                          now: float | None = None) -> list[int]:
        """Stake, for each ``(owner, card)``, a free copy the owner has of it (see
        :func:`stake_cards_in`); the copies staked, in the order asked."""
        return await self.db.write(_StakeCards(guild, match, tuple(stakes),
                                               time.time() if now is None else now))

    async def settle_ante(self, match: int, winner_id: int | None,
                          now: float | None = None) -> list[int]:
        """Every staked copy to the winner (``None``: a draw, nothing moves); unlocks.
        Returns the copies that changed owner."""
        return list(await self.db.write(_SettleAnte(
            match, winner_id, time.time() if now is None else now)))

    # -- reading
    async def owned(self, guild: int, user: int) -> list[Copy]:
        """``user``'s copies here, each with its lock if any, by card then serial."""
        rows = await self.db.fetchall(
            f"{_COPY_COLUMNS} WHERE c.guild_id = ? AND c.owner_id = ?"
            " ORDER BY c.card, c.serial IS NULL, c.serial, c.id", (guild, user))
        return [_copy(row) for row in rows]

    async def counts(self, guild: int, user: int) -> dict[str, CardCount]:
        """Per card: copies ``user`` owns here, and how many of them no lock holds."""
        rows = await self.db.fetchall(
            "SELECT c.card, COUNT(*) AS owned, COUNT(*) - COUNT(l.copy_id) AS free"
            " FROM copies c LEFT JOIN copy_locks l ON l.copy_id = c.id"
            " WHERE c.guild_id = ? AND c.owner_id = ? GROUP BY c.card ORDER BY c.card",
            (guild, user))
        return {row["card"]: CardCount(row["card"], row["owned"], row["free"]) for row in rows}

    async def copies_in_server(self, guild: int, card: str) -> int:
        """How many copies of ``card`` exist here."""
        row = await self._one("SELECT COUNT(*) FROM copies WHERE guild_id = ? AND card = ?",
                                     (guild, card))
        return int(row[0]) if row else 0

    async def print_run(self, guild: int, card: str) -> PrintRun | None:
        """``card``'s limited run here, once it has one."""
        row = await self._one("SELECT * FROM print_runs WHERE guild_id = ? AND card = ?",
                                     (guild, card))
        return None if row is None else PrintRun(row["guild_id"], row["card"], row["size"],
                                                 row["printed"])

    async def copies(self, ids: Sequence[int]) -> list[Copy]:
        """The copies with these ids (each with its lock), by id."""
        if not ids:
            return []
        rows = await self.db.fetchall(
            f"{_COPY_COLUMNS} WHERE c.id IN ({_marks(len(ids))}) ORDER BY c.id", tuple(ids))
        return [_copy(row) for row in rows]

    async def print_runs(self, guild: int, cards: Iterable[str]) -> dict[str, PrintRun]:
        """The limited runs of ``cards`` here that have begun, by card."""
        names = sorted(set(cards))
        if not names:
            return {}
        rows = await self.db.fetchall(
            f"SELECT * FROM print_runs WHERE guild_id = ? AND card IN ({_marks(len(names))})",
            (guild, *names))
        return {row["card"]: PrintRun(row["guild_id"], row["card"], row["size"], row["printed"])
                for row in rows}

    async def every_print_run(self, guild: int) -> dict[str, PrintRun]:
        """Every limited run begun here, by card."""
        rows = await self.db.fetchall("SELECT * FROM print_runs WHERE guild_id = ?", (guild,))
        return {row["card"]: PrintRun(row["guild_id"], row["card"], row["size"], row["printed"])
                for row in rows}

    async def copies_of(self, guild: int, cards: Iterable[str] | None = None) -> dict[str, int]:
        """Per card (of ``cards``, default every card): how many copies exist here, by
        whatever way they came. Only cards some have: by card."""
        if cards is None:
            rows = await self.db.fetchall(
                "SELECT card, COUNT(*) AS n FROM copies WHERE guild_id = ? GROUP BY card",
                (guild,))
            return {row["card"]: int(row["n"]) for row in rows}
        names = sorted(set(cards))
        found: dict[str, int] = {}
        for start in range(0, len(names), 500):  # within every engine's parameter limit
            chunk = names[start:start + 500]
            rows = await self.db.fetchall(
                "SELECT card, COUNT(*) AS n FROM copies"
                f" WHERE guild_id = ? AND card IN ({_marks(len(chunk))}) GROUP BY card",
                (guild, *chunk))
            found.update((row["card"], int(row["n"])) for row in rows)
        return found

    async def books(self, guild: int) -> tuple[int, int]:
        """How many copies exist here, and how many ledger rows record them."""
        row = await self._one("SELECT (SELECT COUNT(*) FROM copies WHERE guild_id = ?),"
                              " (SELECT COUNT(*) FROM ledger WHERE guild_id = ?)", (guild, guild))
        return (int(row[0]), int(row[1])) if row else (0, 0)

    async def audit(self, guild: int) -> list[Problem]:
        """Replay ``guild``'s ledger against the copies, locks and print runs: every
        problem found (none: the books balance). A copy with no creation row, a row
        taking a copy from someone who did not own it, an owner the ledger does not
        explain, a lock held for a closed trade or a settled ante (or a live one's copy
        left unlocked), serials not 1…printed."""
        return _audit(await self.db.fetchall(_AUDIT, {"g": guild}))

    # -- decks
    async def save_deck(self, guild: int, owner: int, name: str, cards: Sequence[str],
                        now: float) -> None:
        """Create or replace ``owner``'s deck ``name`` (names ignore case: a deck of
        that name in another case is replaced, and renamed as given)."""
        await self.db.write(_SaveDeck(guild, owner, name, tuple(cards), now))

    async def deck(self, guild: int, owner: int, name: str) -> Deck | None:
        """One deck, its name in any case, or ``None``."""
        row = await self._one("SELECT * FROM decks WHERE guild_id = ? AND owner_id = ?"
                              " AND name = ? COLLATE NOCASE", (guild, owner, name))
        return None if row is None else _deck(row)

    async def decks(self, guild: int, owner: int) -> list[Deck]:
        """``owner``'s decks here, by name."""
        rows = await self.db.fetchall("SELECT * FROM decks WHERE guild_id = ? AND owner_id = ?"
                                      " ORDER BY name", (guild, owner))
        return [_deck(row) for row in rows]

    async def delete_deck(self, guild: int, owner: int, name: str) -> bool:
        """Delete a deck, its name in any case; ``False`` if there was none."""
        return bool(await self.db.write(_DeleteDeck(guild, owner, name)))


def _deck(row: sqlite3.Row) -> Deck:
    return Deck(row["guild_id"], row["owner_id"], row["name"], tuple(json.loads(row["cards"])),
                row["updated_at"])


__all__ = [
    "CONFIRM_GRACE", "AlreadyClaimed", "AnteClosed", "BadRequest", "CardCount",
    "CollectionRefusal", "CollectionRepository", "Copy", "CopyLock", "Deck", "Locked",
    "NoPack", "NotOwned", "NotParty", "OpenedPack", "PackCredit", "PrintRun", "Problem",
    "TooEarly", "TooMany", "Trade", "TradeClosed", "TradeMessage",
    "ante_staked_in",
    "grant_pack_in",
    "settle_ante_in",
    "stake_cards_in",
]
