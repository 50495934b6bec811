"""The writer: one thread of the bot's process owns the SQLite file's only writing
connection and commits every write, a group at a time.

A group is every write handed over while the previous group was being committed:
one transaction for all of them, each in a savepoint of its own, so a write that
fails fails alone (:func:`commit_group`). Each caller's future is answered once
the group's commit is durable, the whole group in one
:meth:`~asyncio.AbstractEventLoop.call_soon_threadsafe`.

Why so few statements per group: the :mod:`sqlite3` module lets go of the GIL
around each call into SQLite, and a thread that wants it back while the event
loop's thread runs Python code may wait up to the interpreter's switch interval
(5 ms) for it. A group therefore costs a few hand-offs, not one per statement:
the usual moves of a group are one statement in autocommit (a
:class:`BulkWork`), so the group is woken, written, committed and answered in
about four hand-offs (docs/performance.md, "Writer thread or writer process").

A caller always learns its write's outcome: its result once committed, or an
exception, and then nothing of that write is stored (a transaction that fails is
rolled back; if even that fails, the connection is closed, which rolls it back,
and opened again). If the thread itself stops (its connection cannot be
opened), the writes waiting for it fail with :class:`WriterStopped`, none of
them begun, and the next write starts a new thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from storage.connection import CACHED_STATEMENTS, connect
from storage.errors import StorageError, WriterStopped

log = logging.getLogger(__name__)

Work = Callable[[sqlite3.Connection], Any]
"""A write, run on the writer's thread with its :mod:`sqlite3` connection."""
Entry = tuple[Work, "asyncio.Future[Any]"]
Outcome = tuple[bool, Any]
"""``(True, result)`` or ``(False, exception)``."""


class BulkWork(Protocol):
    """A write that a group may make together with others of its kind: calling it
    writes it alone; its ``bulk`` writes many of them at once, in a few
    statements. Called outside a transaction, ``bulk`` must be atomic by itself
    (one statement, or a savepoint of its own). Results of bulk writes are
    ``None``."""

    bulk: Callable[[sqlite3.Connection, Sequence[Any]], None]

    def __call__(self, conn: sqlite3.Connection) -> None: ...


SWITCH_INTERVAL = 0.0005
"""The interpreter's switch interval (:func:`sys.setswitchinterval`, 5 ms by
default) is lowered to this when a writer starts, for the whole process: the
longest the writer waits for the GIL after a call into SQLite while the event
loop's thread runs Python code. The event loop's thread is asked to let go of
the GIL only while another thread waits for it, so a shorter interval costs it
a few hand-offs per group of writes and nothing otherwise."""


class WriterThread:
    """The writer of one SQLite file: :meth:`submit` hands a write over and
    returns a future answered once it is committed (or failed, with its
    exception and nothing of it stored)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._queue: queue.SimpleQueue[Entry | asyncio.Future[None]] = queue.SimpleQueue()
        """Writes handed over, and last the future :meth:`close` waits on."""
        # Held to start the thread and to hand a write over, and by a stopping
        # thread to fail what it leaves: no write is handed to a thread that ends.
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def thread(self) -> threading.Thread | None:
        """The writer's thread while it runs (it starts with the first write)."""
        return self._thread

    def submit(self, work: Work) -> asyncio.Future[Any]:
        """Hand ``work`` to the writer."""
        if self._closed:
            raise StorageError("the store is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        with self._lock:
            if self._thread is None:
                if sys.getswitchinterval() > SWITCH_INTERVAL:
                    sys.setswitchinterval(SWITCH_INTERVAL)
                self._thread = threading.Thread(target=self._serve, name="croupier-db-writer",
                                                daemon=True)
                self._thread.start()
            self._queue.put((work, future))
        return future

    async def close(self) -> None:
        """Let the thread commit every write handed over, answer it, and end."""
        self._closed = True  # no write is handed over from now on
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            if self._thread is None:  # never started, or stopped having answered all
                return
            self._queue.put(ended)  # answered after every write before it
        await ended

    # -- on the writer's thread --------------------------------------------------------
    def _serve(self) -> None:
        group: list[Entry] = []
        try:
            conn = connect(self.path, cached_statements=CACHED_STATEMENTS)
        except BaseException as exc:
            self._stopped(group, exc)
            return
        try:
            ended: asyncio.Future[None] | None = None
            while ended is None:
                item = self._queue.get()  # waits for the first write of a group
                while True:
                    if isinstance(item, tuple):
                        group.append(item)
                    else:
                        ended = item
                        break
                    try:  # every write already waiting joins the group
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                if group:
                    outcomes, conn = _commit(conn, self.path, group)
                    futures, group = [future for _, future in group], []
                    _answer(zip(futures, outcomes, strict=True))
            with self._lock:
                self._thread = None
            _answer([(ended, (True, None))])
        except BaseException as exc:
            self._stopped(group, exc)
        finally:
            conn.close()  # rolls back anything not committed

    def _stopped(self, group: list[Entry], exc: BaseException) -> None:
        """The thread ends unexpectedly: fail the writes it leaves (none begun)."""
        left, ends = [future for _, future in group], []
        with self._lock:
            self._thread = None
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, tuple):
                    left.append(item[1])
                else:
                    ends.append(item)
        log.error("the database writer stopped with %d writes waiting", len(left),
                  exc_info=exc)
        stopped = WriterStopped(f"the database writer stopped ({type(exc).__name__}: {exc});"
                                " this write is not stored")
        stopped.__cause__ = exc
        _answer([*((future, (False, stopped)) for future in left),
                 *((end, (True, None)) for end in ends)])


def _commit(conn: sqlite3.Connection, path: str,
            group: list[Entry]) -> tuple[list[Outcome], sqlite3.Connection]:
    """Commit ``group``: the outcome of each write, and the connection to go on with."""
    try:
        return commit_group(conn, [work for work, _ in group]), conn
    except Exception as exc:  # the transaction failed: rolled back, nothing stored
        failed: BaseException = exc
    except BaseException as exc:  # a work raised SystemExit or the like: the same
        failed = WriterStopped(f"a write raised {type(exc).__name__}: {exc};"
                               " nothing of its group is stored")
        failed.__cause__ = exc
    try:
        in_doubt = conn.in_transaction  # the rollback failed too
    except sqlite3.Error:  # the connection was closed
        in_doubt = True
    if in_doubt:  # closing the connection rolls back what it did not commit
        conn.close()
        conn = connect(path, cached_statements=CACHED_STATEMENTS)
    return [(False, failed)] * len(group), conn


def _answer(answers: Iterable[tuple[asyncio.Future[Any], Outcome]]) -> None:
    """Post the outcomes to the callers' event loops, once per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Outcome]]] = {}
    for future, outcome in answers:
        by_loop.setdefault(future.get_loop(), []).append((future, outcome))
    for loop, posted in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for these
            loop.call_soon_threadsafe(_settle, posted)


def _settle(answers: list[tuple[asyncio.Future[Any], Outcome]]) -> None:
    for future, (ok, value) in answers:
        if future.done():
            continue  # its caller was cancelled; the write stands (or failed) all the same
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def commit_group(conn: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """Commit a group of writes: ``(True, result)`` or ``(False, exception)`` per
    write, or raises (rolling everything back) if the transaction fails.

    A group made only of writes of one bulk kind (:class:`BulkWork`, the usual
    moves under load) is first written by its ``bulk`` alone, in autocommit: one
    statement, committed by itself. So is a group of one write that is one
    statement (its ``single_statement`` is true). Any other group is first one
    transaction without savepoints, each bulk kind written together. If a write
    fails there (or the bulk in autocommit did), the group is written again,
    one transaction with each write in a savepoint of its own (the bulk kinds
    first tried together in one): a write that raises is rolled back and fails
    alone. Writes must therefore do nothing but SQL: one may run twice.

    >>> conn = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    >>> insert = lambda n: lambda c: c.execute("INSERT INTO t VALUES (?)", (n,)).lastrowid
    >>> [(ok, str(value)) for ok, value in commit_group(conn, [insert(1), insert(1), insert(2)])]
    [(True, '1'), (False, 'UNIQUE constraint failed: t.n'), (True, '2')]
    """
    bulk = getattr(works[0], "bulk", None)
    tried = None
    if bulk is not None and all(getattr(work, "bulk", None) == bulk for work in works):
        tried = bulk
        try:
            bulk(conn, works)
        except Exception:
            if conn.in_transaction:  # a bulk that left its savepoint open, say
                conn.execute("ROLLBACK")
        else:
            return [(True, None)] * len(works)
    if len(works) == 1:
        if getattr(works[0], "single_statement", False):
            try:  # atomic by itself: no BEGIN and COMMIT around it
                return [(True, works[0](conn))]
            except Exception as exc:
                return [(False, exc)]
        return _alone(conn, works[0])
    if tried is None:
        try:
            return _together(conn, works)
        except Exception:  # some write failed (nothing is stored): each alone, below
            pass
    return _each_alone(conn, works, tried)


def _together(conn: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """The group in one transaction and no savepoint (two calls into SQLite fewer
    per write): raises if any write fails, and then nothing is stored."""
    outcomes: list[Outcome | None] = [None] * len(works)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for kind, members in _kinds(works, None).items():
            kind(conn, [works[n] for n in members])
            for n in members:
                outcomes[n] = (True, None)
        for n, work in enumerate(works):
            if outcomes[n] is None:
                outcomes[n] = (True, work(conn))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return [outcome for outcome in outcomes if outcome is not None]


def _each_alone(conn: sqlite3.Connection, works: Sequence[Work], tried: Any) -> list[Outcome]:
    """The group in one transaction, each write in a savepoint of its own (the
    bulk kinds first together in one): a write that fails fails alone."""
    outcomes: list[Outcome | None] = [None] * len(works)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for kind, members in _kinds(works, tried).items():
            conn.execute("SAVEPOINT bulk")
            try:
                kind(conn, [works[n] for n in members])
            except Exception:
                conn.execute("ROLLBACK TO bulk")  # each alone, below
            else:
                for n in members:
                    outcomes[n] = (True, None)
            conn.execute("RELEASE bulk")
        for n, work in enumerate(works):
            if outcomes[n] is not None:
                continue
            conn.execute("SAVEPOINT write")
            try:
                outcomes[n] = (True, work(conn))
            except Exception as exc:
                conn.execute("ROLLBACK TO write")
                outcomes[n] = (False, exc)
            conn.execute("RELEASE write")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return [outcome for outcome in outcomes if outcome is not None]


def _kinds(works: Sequence[Work], tried: Any) -> dict[Any, list[int]]:
    """The bulk kinds with two writes or more in ``works`` (but ``tried``, the
    kind whose bulk failed), and their writes' positions."""
    kinds: dict[Any, list[int]] = {}
    for n, work in enumerate(works):
        kind = getattr(work, "bulk", None)
        if kind is not None and kind != tried:
            kinds.setdefault(kind, []).append(n)
    return {kind: members for kind, members in kinds.items() if len(members) > 1}


def _alone(conn: sqlite3.Connection, work: Work) -> list[Outcome]:
    """One write in a transaction of its own (no savepoint needed)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
    except Exception as exc:
        conn.execute("ROLLBACK")
        return [(False, exc)]
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return [(True, result)]
