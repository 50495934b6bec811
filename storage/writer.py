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

The child is ``python -c "from storage.group_commit import serve; serve()"`` with the
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
import subprocess
import sys
from typing import Any

from storage.connection import connect
from storage.errors import StorageError, WriterStopped
from storage.group_commit import (
    ANSWER,
    REQUEST,
    Answer,
    Outcome,
    Work,
)

log = logging.getLogger(__name__)

_CHILD = "from storage.group_commit import serve; serve()"


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
