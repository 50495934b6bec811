"""The writer process's end of group commit (see :mod:`storage.writer` for the bot's end
and why the writes go to a process of their own): read writes from standard input,
commit whatever is waiting as one group, answer each group on standard output.

A module of its own so that the writer process imports what it runs and little else:
no :mod:`asyncio`, no repository but those whose writes it unpickles (it starts once
per store opened).
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sqlite3
import struct
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from storage.connection import connect
from storage.errors import StorageError, WriterStopped

REQUEST = struct.Struct("!IQ")
"""A write's frame header: payload length, request id."""
ANSWER = struct.Struct("!I")
"""A group's answer frame header: payload length."""
READ_BYTES = 1 << 20

Work = Callable[[sqlite3.Connection], Any]
"""A write, run by the writer process with its :mod:`sqlite3` connection."""
Outcome = tuple[bool, Any]
"""``(True, result)`` or ``(False, exception)``."""
Answer = tuple[int, bool, Any]
"""``(request id, ok, result or exception)``."""


class BulkWork(Protocol):
    """A write that a group may make together with others of its kind: calling it
    writes it alone; its ``bulk`` writes many of them at once, in a few
    statements. Results of bulk writes are ``None``."""

    bulk: Callable[[sqlite3.Connection, Sequence[Any]], None]

    def __call__(self, conn: sqlite3.Connection) -> None: ...


# -- the writer's end ----------------------------------------------------------------------
def serve() -> None:
    """The writer process (``sys.argv``: the file's path, the session): commit group
    after group of the writes read from standard input until it ends, answering
    each group on standard output."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle
    path, session = sys.argv[1], int(sys.argv[2])
    answers = os.dup(1)  # answers only: anything printed goes to standard error
    os.dup2(2, 1)
    conn = connect(path)
    try:
        _serve(conn, path, sys.stdin.fileno(), answers, session)
    finally:
        conn.close()


def _serve(conn: sqlite3.Connection, path: str, requests: int, answers: int,
           session: int) -> None:
    pending = bytearray()
    while True:
        # Waits for the first write of a group; returns every byte already
        # waiting in the pipe (up to its size), so those writes join the group.
        chunk = os.read(requests, READ_BYTES)
        if not chunk:
            return  # the bot closed it, or is gone: everything read is committed
        pending += chunk
        group, used = _take_requests(pending)
        del pending[:used]
        if group:
            outcome, conn = _commit(conn, path, group, session)
            try:
                _send(answers, outcome)
            except OSError:
                return  # the bot is gone; what was committed stays committed


def _take_requests(buffer: bytearray) -> tuple[list[tuple[int, Work | Exception]], int]:
    """The complete requests at the start of ``buffer`` (a write that cannot be
    unpickled stands as its exception) and the bytes they took."""
    group: list[tuple[int, Work | Exception]] = []
    at = 0
    while len(buffer) - at >= REQUEST.size:
        size, request_id = REQUEST.unpack_from(buffer, at)
        end = at + REQUEST.size + size
        if end > len(buffer):
            break
        try:
            group.append((request_id, pickle.loads(buffer[at + REQUEST.size:end])))
        except Exception as exc:
            group.append((request_id, exc))
        at = end
    return group, at


def _commit(conn: sqlite3.Connection, path: str, group: list[tuple[int, Work | Exception]],
            session: int) -> tuple[list[Answer], sqlite3.Connection]:
    """Commit ``group``: its answers, and the connection to go on with."""
    ids = [request_id for request_id, work in group if not isinstance(work, Exception)]
    works = [work for _, work in group if not isinstance(work, Exception)]
    answers: list[Answer] = [(request_id, False, _explained(work))
                             for request_id, work in group if isinstance(work, Exception)]
    if not works:
        return answers, conn

    def keep(conn: sqlite3.Connection, outcomes: Sequence[Outcome]) -> None:
        conn.execute("INSERT OR REPLACE INTO writer_last_group (id, session, outcomes)"
                     " VALUES (1, ?, ?)", (session, _kept(ids, outcomes)))

    failed: BaseException
    try:
        outcomes = commit_group(conn, works, keep)
    except Exception as exc:  # the transaction failed: nothing of the group is stored
        failed = exc
    except BaseException as exc:  # a work raised SystemExit or the like: the same
        failed = WriterStopped(f"a write raised {type(exc).__name__}: {exc};"
                               " nothing of its group is stored")
        failed.__cause__ = exc
    else:
        return answers + [(request_id, ok, value if ok else _explained(value))
                          for request_id, (ok, value) in zip(ids, outcomes, strict=True)], conn
    try:
        in_doubt = conn.in_transaction  # the rollback failed too
    except sqlite3.Error:  # the connection was closed
        in_doubt = True
    if in_doubt:  # closing the connection rolls back what it did not commit
        conn.close()
        conn = connect(path)
    return answers + [(request_id, False, _explained(failed)) for request_id in ids], conn


def _kept(ids: Sequence[int], outcomes: Sequence[Outcome]) -> str:
    """The group's outcomes as kept in the file: a result as JSON (the writes'
    results are numbers, text or ``None``; anything else as its ``repr``), a
    failure as its message."""
    return json.dumps([[request_id, ok, value if ok else f"{type(value).__name__}: {value}"]
                       for request_id, (ok, value) in zip(ids, outcomes, strict=True)],
                      default=repr)


def _explained(exc: BaseException) -> BaseException:
    """``exc`` with where it happened in the writer added as a note (kept by pickle),
    for the bot's logs."""
    if not any(note.startswith("In the database writer") for note in getattr(exc, "__notes__", ())):
        exc.add_note("In the database writer process:\n"
                     + "".join(traceback.format_exception(exc)).rstrip())
    return exc


def _send(fd: int, answers: list[Answer]) -> None:
    try:
        payload = pickle.dumps(answers, pickle.HIGHEST_PROTOCOL)
    except Exception:
        payload = pickle.dumps([_picklable(a) for a in answers], pickle.HIGHEST_PROTOCOL)
    data = memoryview(ANSWER.pack(len(payload)) + payload)
    while data:
        data = data[os.write(fd, data):]


def _picklable(answer: Answer) -> Answer:
    request_id, ok, value = answer
    try:
        pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception:
        what = f"{type(value).__name__}: {value}" if not ok else "its result"
        return request_id, False, StorageError(f"the database writer could not send back {what}")
    return answer


# -- group commit --------------------------------------------------------------------------
class _Again(Exception):
    """A write of the group failed (the cause): the group is written again, each alone."""


def commit_group(conn: sqlite3.Connection, works: Sequence[Work],
                 keep: Callable[[sqlite3.Connection, Sequence[Outcome]], None] | None = None,
                 ) -> list[Outcome]:
    """Commit a group of writes in one transaction: ``(True, result)`` or
    ``(False, exception)`` per write, or raises (rolling everything back) if the
    transaction fails. ``keep(connection, outcomes)`` runs in the transaction
    just before ``COMMIT`` (the writer keeps the outcomes in the file).

    The group is first written in one go: the writes of each bulk kind
    (:class:`BulkWork`, the usual moves) together, each other write on its own,
    no savepoint. If a write fails there, the transaction is rolled back and the
    group written again with each write in a savepoint of its own, so that only
    the failing one fails. Writes must therefore do nothing but SQL: one may run
    twice.

    >>> conn = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
    >>> insert = lambda n: lambda c: c.execute("INSERT INTO t VALUES (?)", (n,)).lastrowid
    >>> [(ok, str(value)) for ok, value in commit_group(conn, [insert(1), insert(1), insert(2)])]
    [(True, '1'), (False, 'UNIQUE constraint failed: t.n'), (True, '2')]
    """
    try:
        return _transaction(conn, works, keep, together)
    except _Again as again:
        if len(works) == 1:
            return [(False, again.__cause__)]
    return _transaction(conn, works, keep, each_alone)


def _transaction(conn: sqlite3.Connection, works: Sequence[Work],
                 keep: Callable[[sqlite3.Connection, Sequence[Outcome]], None] | None,
                 write: Callable[[sqlite3.Connection, Sequence[Work]], list[Outcome]],
                 ) -> list[Outcome]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        outcomes = write(conn, works)
        if keep is not None:
            keep(conn, outcomes)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def together(conn: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """Every write in one go, in the caller's transaction; raises :class:`_Again`
    (its cause: the write's exception) if one fails (shared with PostgreSQL's
    group commit, :class:`storage.postgres.db.PostgresDatabase`)."""
    outcomes: list[Outcome | None] = [None] * len(works)
    kinds: dict[Any, list[int]] = {}
    for n, work in enumerate(works):
        kind = getattr(work, "bulk", None)
        if kind is not None:
            kinds.setdefault(kind, []).append(n)
    try:
        for kind, members in kinds.items():
            kind(conn, [works[n] for n in members])
            for n in members:
                outcomes[n] = (True, None)
        for n, work in enumerate(works):
            if outcomes[n] is None:
                outcomes[n] = (True, work(conn))
    except Exception as exc:
        raise _Again(exc) from exc
    return cast(list[Outcome], outcomes)  # every slot is filled by now


def each_alone(conn: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """Every write in a savepoint of its own, in the caller's transaction: one that
    fails fails alone."""
    outcomes: list[Outcome] = []
    for work in works:
        conn.execute("SAVEPOINT write")
        try:
            outcomes.append((True, work(conn)))
        except Exception as exc:
            conn.execute("ROLLBACK TO write")
            outcomes.append((False, exc))
        conn.execute("RELEASE write")
    return outcomes
