"""The local table's screen and keyboard: a :mod:`rich` console (or a plain-text
``write`` function, for tests) and lines typed at the terminal, read by the event loop."""

from __future__ import annotations

import asyncio
import codecs
import io
import os
import sys
from collections import deque
from collections.abc import Awaitable, Callable

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

MAX_LINE = 4096
"""Longest line read from the terminal; the rest of a longer line is dropped and
what is kept ends in "…", so that it is refused, never half-read."""
PLAIN_WIDTH = 100
"""Width of the plain text given to a ``write`` function."""
STYLES = {"event": "cyan", "private": "magenta", "warning": "bold yellow", "hint": "dim",
          "verdict": "bold green", "prompt": "bold", "heading": "bold"}

ReadLine = Callable[[str], Awaitable[str]]
Write = Callable[[str], None]



# -- output --------------------------------------------------------------------------------
class Screen:
    """Where the local table shows things: a :mod:`rich` console (colour, tables and
    formatted rules on a terminal, plain text when the output is not one) or, for
    tests and callers with an output of their own, a function given each block as
    plain text."""

    def __init__(self, write: Write | None = None, console: Console | None = None) -> None:
        if console is None:
            console = (Console(highlight=False, markup=False, emoji=False) if write is None
                       else Console(file=io.StringIO(), width=PLAIN_WIDTH, color_system=None,
                                    force_terminal=False, highlight=False, markup=False,
                                    emoji=False))
        self.console = console
        self._write = write

    def show(self, renderable: RenderableType) -> None:
        """One block: text as it is (never wrapped or read as markup), or a table."""
        soft = isinstance(renderable, str | Text)
        if self._write is None:
            self.console.print(renderable, soft_wrap=soft)
            return
        with self.console.capture() as captured:
            self.console.print(renderable, soft_wrap=soft)
        text = captured.get()
        self._write("\n".join(line.rstrip() for line in text.rstrip("\n").split("\n")))

    def say(self, text: str, kind: str | None = None) -> None:
        """A line (or lines) of text, styled by ``kind`` (see :data:`STYLES`)."""
        self.show(Text(text, style=STYLES.get(kind or "", "")))

    def warn(self, text: str) -> None:
        """A refusal."""
        self.say(f"⚠ {text}", "warning")

    def prompt(self, text: str) -> None:
        """A prompt, left on its line for the answer."""
        self.console.print(Text(text, style=STYLES["prompt"]), end="", soft_wrap=True)
        self.console.file.flush()


# -- input ---------------------------------------------------------------------------------
class TerminalInput:
    """Lines typed at the terminal, read by the event loop itself rather than by a
    thread blocked in :func:`input`, so that Ctrl-C stops a prompt at once: the
    loop cancels the waiting task and nothing is left running.

    Bytes that are not UTF-8 are replaced; a line longer than :data:`MAX_LINE`
    characters is cut and ends in "…"; end of input raises :class:`EOFError`.
    """

    def __init__(self, screen: Screen, fd: int | None = None) -> None:
        self.screen = screen
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial: list[str] = []
        self._partial_size = 0
        self._cut = False
        self._lines: deque[str] = deque()
        self._eof = False

    async def __call__(self, prompt: str) -> str:
        self.screen.prompt(prompt)
        return await self.line()

    async def line(self) -> str:
        """The next line, without its line ending."""
        while not self._lines:
            if self._eof:
                self.screen.say("")  # the prompt's line was left open
                raise EOFError
            self.feed(await self._read())
        return self._lines.popleft()

    def feed(self, chunk: bytes) -> None:
        """Take in bytes read (``b""``: end of input)."""
        text = self._decoder.decode(chunk, final=not chunk)
        *complete, rest = text.split("\n")
        for piece in complete:
            self._keep(piece)
            self._lines.append(self._take())
        self._keep(rest)
        if not chunk:
            self._eof = True
            if self._partial_size or self._cut:
                self._lines.append(self._take())

    def _keep(self, piece: str) -> None:
        room = MAX_LINE - self._partial_size
        if len(piece) > room:
            piece, self._cut = piece[:room], True
        if piece:
            self._partial.append(piece)
            self._partial_size += len(piece)

    def _take(self) -> str:
        line = "".join(self._partial).removesuffix("\r") + ("…" if self._cut else "")
        self._partial, self._partial_size, self._cut = [], 0, False
        return line

    async def _read(self) -> bytes:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[bytes] = loop.create_future()

        def readable() -> None:
            if not ready.done():
                try:
                    ready.set_result(os.read(self.fd, 65536))
                except BlockingIOError:
                    pass
                except OSError as error:
                    ready.set_exception(error)

        try:
            loop.add_reader(self.fd, readable)
        except (PermissionError, NotImplementedError, ValueError):
            # A regular file (never "ready" for epoll, and never blocking) or a
            # loop without readers: read it directly.
            return os.read(self.fd, 65536)
        try:
            return await ready
        finally:
            loop.remove_reader(self.fd)



def titled(title: str, table: Table, kind: str = "heading") -> RenderableType:
    """A heading line, then the table indented under it."""
    return Group(Text(title, style=STYLES[kind]), Padding(table, (0, 0, 0, 2)))
