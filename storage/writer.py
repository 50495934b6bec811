"""The writer: every write to the SQLite file is committed by a child process of
the bot, a group at a time.

Why a process, not a thread of the bot: the :mod:`sqlite3` module lets go of the
GIL around each call into SQLite, and a thread that wants it back while the
event loop's thread runs Python code waits for it; each such hand-off also stops
the event loop's thread until the writer's thread is scheduled. Even at a few
hand-offs per group (the usual moves of a group in one statement) a writer
thread cost the event loop about a tenth of its time and missed the latency
target the process meets (docs/performance.md, "Writer thread or writer
process"). The child has an interpreter and a GIL of its own: the event loop
only pickles each write and reads the answers.

The child is ``python -c "from storage.writer import serve; serve()"`` with the
bot's interpreter and working directory, started by asyncio and fed through its
standard input and output, on any platform and event loop:

* bot → writer, one frame per write: :data:`REQUEST` (payload length, request
  id), then the pickled work, a picklable callable ``work(connection)`` (a
  module-level dataclass instance, or a :func:`functools.partial` of a
  module-level function, of a module the child can import as the bot did);
* writer → bot, one frame per group: :data:`ANSWER` (payload length), then the
  pickled list of ``(request id, ok, result or exception)``.

The writer commits whatever writes are waiting as one group
(:func:`commit_group`) and answers once the group's commit is durable.

**Every caller learns its write's outcome.** The group's transaction also keeps
the group's outcomes in the file (table ``writer_last_group``). If the writer
dies (killed, out of memory), the bot reads that row back: a write it holds was
committed with the outcome kept there, and any other write it had handed over
was not committed and fails with :class:`WriterStopped` (nothing of it stored).
The next write starts a new writer. The writer ignores Ctrl-C (it reaches the
whole process group); it stops when the bot closes its standard input or dies,
after committing everything it read.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import secrets
import signal
import sqlite3
import struct
import subprocess
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from storage.connection import connect
from storage.errors import StorageError, WriterStopped

log = logging.getLogger(__name__)

REQUEST = struct.Struct("!IQ")
"""A write's frame header: payload length, request id."""
ANSWER = struct.Struct("!I")
"""A group's answer frame header: payload length."""
READ_BYTES = 1 << 20
_CHILD = "from storage.writer import serve; serve()"

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


# -- the bot's end ------------------------------------------------------------------------
class WriterProcess:
    """The bot's end of the writer process of one SQLite file.

    :meth:`submit` hands a write over and returns a future answered once it is
    committed, or failed with its exception and nothing of it stored. The writes
    handed over in one pass of the event loop leave together. The process starts
    with the first write.
    """

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self._session = secrets.randbits(62)
        """Marks this writer's outcomes kept in the file (another bot may have
        left some there, under request ids of its own)."""
        self._channel: _Channel | None = None
        self._state = "stopped"  # → starting → running → recovering → stopped
        self._outbox = bytearray()
        self._futures: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 0
        self._sent = 0
        """The last request id handed to the running process."""
        self._flushing = False
        self._closed = False
        self._idle: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        """Starting the process, or answering for one that stopped."""

    @property
    def pid(self) -> int | None:
        """The process id of the running writer, if one runs."""
        return None if self._channel is None else self._channel.pid

    def submit(self, work: Work) -> asyncio.Future[Any]:
        """Hand ``work`` to the writer. Raises at once if it cannot be pickled."""
        if self._closed:
            raise StorageError("the store is closed")
        payload = pickle.dumps(work, pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        self._next_id += 1
        future: asyncio.Future[Any] = loop.create_future()
        self._futures[self._next_id] = future
        self._outbox += REQUEST.pack(len(payload), self._next_id)
        self._outbox += payload
        if self._state == "stopped":
            self._state = "starting"
            self._task = loop.create_task(self._start())
        elif self._state == "running" and not self._flushing:
            self._flushing = True
            loop.call_soon(self._flush)
        return future

    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            _, channel = await loop.subprocess_exec(
                lambda: _Channel(self), sys.executable, "-c", _CHILD, self.path,
                str(self._session), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)
        except Exception as exc:
            self._state = "stopped"
            self._outbox.clear()
            self._fail(self._futures, WriterStopped(
                f"the database writer could not start ({type(exc).__name__}: {exc});"
                " this write is not stored"), exc)
            self._check_idle()
            return
        self._channel = channel
        self._state = "running"
        self._flush()

    def _flush(self) -> None:
        self._flushing = False
        if self._channel is None or not self._outbox:
            return
        self._sent = self._next_id
        self._channel.send(bytes(self._outbox))
        self._outbox.clear()

    def _answer(self, answers: list[Answer]) -> None:
        for request_id, ok, value in answers:
            future = self._futures.pop(request_id, None)
            if future is None or future.done():
                continue  # its caller was cancelled; the write stands
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._check_idle()

    def _lost(self, channel: _Channel) -> None:
        """The writer process exited and its output is read."""
        self._channel = None
        handed = {request_id: future for request_id, future in self._futures.items()
                  if request_id <= self._sent}
        for request_id in handed:
            del self._futures[request_id]
        self._state = "recovering"
        self._task = asyncio.get_running_loop().create_task(
            self._recover(channel.returncode, handed))

    async def _recover(self, status: int | None, handed: dict[int, asyncio.Future[Any]]) -> None:
        """Answer the writes the stopped writer held, from what it kept in the file."""
        if handed:
            try:
                kept = await asyncio.to_thread(last_group, self.path, self._session)
            except Exception as exc:  # the file cannot be read: nor can it be written
                log.exception("the database writer stopped and its last outcomes are unreadable")
                self._fail(handed, WriterStopped(
                    "the database writer stopped and the file cannot be read;"
                    " this write's outcome is unknown"), exc)
            else:
                log.error("the database writer stopped (exit status %s) holding %d writes,"
                          " %d of them committed", status, len(handed),
                          len(kept.keys() & handed.keys()))
                for request_id, future in handed.items():
                    if future.done():
                        continue
                    if request_id not in kept:
                        future.set_exception(WriterStopped(
                            f"the database writer stopped (exit status {status}) before"
                            " committing this write; it is not stored"))
                    elif kept[request_id][0]:
                        future.set_result(kept[request_id][1])
                    else:
                        future.set_exception(WriterStopped(
                            f"this write failed ({kept[request_id][1]}) and is not stored;"
                            " the database writer stopped before saying so"))
        self._state = "stopped"
        if self._outbox:  # handed over meanwhile (before close, if closing)
            self._state = "starting"
            await self._start()
        self._check_idle()

    @staticmethod
    def _fail(futures: dict[int, asyncio.Future[Any]], error: WriterStopped,
              cause: BaseException) -> None:
        error.__cause__ = cause
        for future in futures.values():
            if not future.done():
                future.set_exception(error)
        futures.clear()

    def _check_idle(self) -> None:
        if (self._idle is not None and not self._futures
                and self._state not in ("starting", "recovering")):
            self._idle.set()

    async def close(self) -> None:
        """Wait for the answers to every write handed over, then let the process end."""
        self._closed = True  # no write is handed over from now on
        self._idle = asyncio.Event()
        self._check_idle()
        await self._idle.wait()
        channel = self._channel
        if channel is not None:
            await channel.end()  # the writer reads to the end and exits


class _Channel(asyncio.SubprocessProtocol):
    """The writer process's standard input and output, as asyncio reads and writes them."""

    def __init__(self, writer: WriterProcess) -> None:
        self._writer = writer
        self._transport: asyncio.SubprocessTransport | None = None
        self._inbox = bytearray()
        self._lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @property
    def pid(self) -> int | None:
        return None if self._transport is None else self._transport.get_pid()

    @property
    def returncode(self) -> int | None:
        return None if self._transport is None else self._transport.get_returncode()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._transport = transport

    def send(self, data: bytes) -> None:
        assert self._transport is not None
        requests = self._transport.get_pipe_transport(0)
        assert isinstance(requests, asyncio.WriteTransport)
        requests.write(data)

    async def end(self) -> None:
        """Close the writer's input (once what is buffered is sent); wait for it to exit."""
        assert self._transport is not None
        requests = self._transport.get_pipe_transport(0)
        if requests is not None:
            requests.close()
        await self._lost

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        inbox = self._inbox
        inbox += data
        at = 0
        while len(inbox) - at >= ANSWER.size:
            (size,) = ANSWER.unpack_from(inbox, at)
            end = at + ANSWER.size + size
            if end > len(inbox):
                break
            self._writer._answer(pickle.loads(inbox[at + ANSWER.size:end]))
            at = end
        del inbox[:at]

    def connection_lost(self, exc: Exception | None) -> None:
        """The process exited and its output was read to the end."""
        self._lost.set_result(None)
        self._writer._lost(self)
        if self._transport is not None:
            self._transport.close()


def last_group(path: str, session: int) -> dict[int, Outcome]:
    """The outcomes the writer of ``session`` kept with its last committed group,
    by request id (a failure as its message)."""
    conn = connect(path)  # the store's settings: a busy file is waited for
    try:
        row = conn.execute("SELECT outcomes FROM writer_last_group WHERE session = ?",
                           (session,)).fetchone()
    finally:
        conn.close()
    return {} if row is None else {request_id: (ok, value)
                                   for request_id, ok, value in json.loads(row[0])}


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
        return _transaction(conn, works, keep, _together)
    except _Again as again:
        if len(works) == 1:
            return [(False, again.__cause__)]
    return _transaction(conn, works, keep, _each_alone)


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


def _together(conn: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """Every write in one go; raises :class:`_Again` if one fails."""
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


def _each_alone(conn: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """Every write in a savepoint of its own: one that fails fails alone."""
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
