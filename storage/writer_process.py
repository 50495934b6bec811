"""The writer process, kept for the comparison with the writer thread
(:mod:`storage.writer`): every write to the SQLite file is committed by a child
process of the bot, not by a thread of it.

Why a process: a commit is a handful of :mod:`sqlite3` calls, and the module
lets go of the GIL around each of them. A thread committing next to a busy event
loop waits for the GIL again after every call, up to the interpreter's switch
interval (5 ms) each time, so under load a group of writes took 2–20 ms to commit
while the disk needs 0.2 ms. The child has an interpreter of its own; the event
loop only pickles each write and reads the answers.

The protocol, over two pipes:

* bot → writer, one frame per write: :data:`REQUEST` (payload length, request
  id), then the pickled work, a picklable callable ``work(connection)`` (a
  module-level dataclass instance, or a :func:`functools.partial` of a
  module-level function);
* writer → bot, one frame per group: :data:`ANSWER` (payload length), then the
  pickled list of ``(request id, ok, result or exception)``.

The writer commits whatever writes are waiting as one group
(:func:`commit_group`) and answers once the group's commit is durable. It ignores
SIGINT and SIGTERM (Ctrl-C reaches the whole process group); it stops when the
bot closes its end of the pipe or dies, after committing everything it read.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from storage.connection import CACHED_STATEMENTS, connect
from storage.errors import StorageError, WriterStopped
from storage.writer import commit_group

log = logging.getLogger(__name__)

REQUEST = struct.Struct("!IQ")
"""A write's frame header: payload length, request id."""
ANSWER = struct.Struct("!I")
"""A group's answer frame header: payload length."""
READ_BYTES = 1 << 20
_CHILD = "import sys; from storage.writer_process import main; main(sys.argv[1:])"

Work = Callable[[sqlite3.Connection], Any]
"""A write, run by the writer process with its :mod:`sqlite3` connection."""
Answer = tuple[int, bool, Any]
"""``(request id, ok, result or exception)``."""


# -- the bot's end ------------------------------------------------------------------------
class WriterProcess:
    """The bot's end of the writer process of one SQLite file.

    :meth:`submit` hands a write over and returns a future answered once it is
    committed (or failed, with the exception it raised). Writes handed over in
    one pass of the event loop leave in one system call. If the process dies,
    the writes it had not answered fail with :class:`WriterStopped` (they may or
    may not be stored) and the next write starts a new process.
    """

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self._process: subprocess.Popen[bytes] | None = None
        self._requests = -1
        self._answers = -1
        self._outbox = bytearray()
        self._inbox = bytearray()
        self._futures: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 0
        self._flushing = False
        self._closed = False

    @property
    def pid(self) -> int | None:
        """The process id of the running writer, if one runs."""
        return None if self._process is None else self._process.pid

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        requests_in, self._requests = os.pipe()
        self._answers, answers_out = os.pipe()
        # The child imports whatever a pickled write names, as this process would.
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            str(Path(p or os.getcwd()).resolve()) for p in sys.path if Path(p or ".").is_dir())
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _CHILD, self.path, str(requests_in), str(answers_out)],
                pass_fds=(requests_in, answers_out), env=env)
        finally:
            os.close(requests_in)
            os.close(answers_out)
        os.set_blocking(self._requests, False)
        os.set_blocking(self._answers, False)
        loop.add_reader(self._answers, self._read_answers)

    def submit(self, work: Work) -> asyncio.Future[Any]:
        """Hand ``work`` to the writer. Raises at once if it cannot be pickled."""
        if self._closed:
            raise StorageError("the store is closed")
        payload = pickle.dumps(work, pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        if self._process is None:
            self._start()
        self._next_id += 1
        future: asyncio.Future[Any] = loop.create_future()
        self._futures[self._next_id] = future
        self._outbox += REQUEST.pack(len(payload), self._next_id)
        self._outbox += payload
        if not self._flushing:
            self._flushing = True
            loop.call_soon(self._flush)
        return future

    def _flush(self) -> None:
        """Write what the outbox holds; the rest once the pipe has room."""
        if self._process is None:
            self._flushing = False
            return
        loop = asyncio.get_running_loop()
        try:
            sent = os.write(self._requests, self._outbox)
        except BlockingIOError:
            sent = 0
        except OSError:  # the writer is gone; its answers pipe says so
            self._flushing = False
            self._outbox.clear()
            return
        del self._outbox[:sent]
        if self._outbox:
            loop.add_writer(self._requests, self._flush)  # (re-adding replaces it)
        else:
            loop.remove_writer(self._requests)
            self._flushing = False

    def _read_answers(self) -> None:
        while True:
            try:
                chunk = os.read(self._answers, READ_BYTES)
            except BlockingIOError:
                break
            if not chunk:
                self._stopped()
                return
            self._inbox += chunk
            if len(chunk) < READ_BYTES:
                break
        at, inbox = 0, self._inbox
        while len(inbox) - at >= ANSWER.size:
            (size,) = ANSWER.unpack_from(inbox, at)
            end = at + ANSWER.size + size
            if end > len(inbox):
                break
            answers: list[Answer] = pickle.loads(inbox[at + ANSWER.size:end])
            at = end
            for request_id, ok, value in answers:
                future = self._futures.pop(request_id, None)
                if future is None or future.done():
                    continue  # its caller was cancelled; the write stands
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        del inbox[:at]

    def _stopped(self) -> None:
        """The writer's end of the answers pipe closed: it exited."""
        process = self._process
        assert process is not None
        loop = asyncio.get_running_loop()
        loop.remove_reader(self._answers)
        os.close(self._answers)
        if self._requests >= 0:
            loop.remove_writer(self._requests)
            os.close(self._requests)
            self._requests = -1
        self._process = None
        self._flushing = False
        self._outbox.clear()
        self._inbox.clear()
        try:
            status = process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            status = None
        futures, self._futures = self._futures, {}
        if futures and not self._closed:
            log.error("the database writer stopped (exit status %s) with %d writes unanswered",
                      status, len(futures))
        for future in futures.values():
            if not future.done():
                future.set_exception(WriterStopped(
                    f"the database writer stopped (exit status {status}); this write may or "
                    "may not be stored"))

    async def close(self) -> None:
        """Wait for the answers to every write handed over, then let the process end."""
        self._closed = True  # no write is handed over from now on
        waiting = [future for future in self._futures.values() if not future.done()]
        if waiting:
            await asyncio.wait(waiting)
        process = self._process
        if process is None:
            return
        while self._outbox:  # every write handed over is sent before the end
            await asyncio.sleep(0.001)
            if self._process is None:
                return
        asyncio.get_running_loop().remove_writer(self._requests)
        os.close(self._requests)  # the writer reads to the end, commits, and exits
        self._requests = -1
        await asyncio.to_thread(process.wait)
        while self._process is not None:  # the answers pipe's end arrives last
            await asyncio.sleep(0.001)


# -- the writer's end ----------------------------------------------------------------------
def main(argv: Sequence[str]) -> None:
    """The writer process: ``main([path, requests fd, answers fd])``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    path, requests, answers = argv[0], int(argv[1]), int(argv[2])
    conn = connect(path, cached_statements=CACHED_STATEMENTS)
    try:
        serve(conn, requests, answers)
    finally:
        conn.close()


def serve(conn: sqlite3.Connection, requests: int, answers: int) -> None:
    """Commit group after group of the writes read from ``requests`` until it
    ends, answering each group on ``answers``."""
    pending = bytearray()
    reading = True
    while reading:
        chunk = os.read(requests, READ_BYTES)  # waits for the first write of a group
        reading = bool(chunk)
        pending += chunk
        # Every write already waiting joins the group.
        while reading and select.select([requests], [], [], 0)[0]:
            chunk = os.read(requests, READ_BYTES)
            reading = bool(chunk)
            pending += chunk
        group, used = _take_requests(pending)
        del pending[:used]
        if group:
            try:
                _send(answers, _commit(conn, group))
            except BrokenPipeError:
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


def _commit(conn: sqlite3.Connection, group: list[tuple[int, Work | Exception]]) -> list[Answer]:
    works = [(request_id, work) for request_id, work in group if not isinstance(work, Exception)]
    answers: list[Answer] = [(request_id, False, _explained(work))
                             for request_id, work in group if isinstance(work, Exception)]
    if works:
        try:
            outcomes = commit_group(conn, [work for _, work in works])
        except Exception as exc:
            outcomes = [(False, exc)] * len(works)
        answers += [(request_id, ok, _explained(value) if not ok else value)
                    for (request_id, _), (ok, value) in zip(works, outcomes, strict=True)]
    return answers


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
