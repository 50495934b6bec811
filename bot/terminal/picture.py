"""The local table's ``picture`` command: the public table's picture, as the
Discord table shows it, saved to a PNG file; and ``picture hand``: the person's own
hand, as their DM shows it (never another seat's).

With no file named, a picture goes in the table's pictures folder (beside its
database), never in whatever folder the terminal happens to be in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.errors import said
from bot.i18n import tr
from bot.matches.live import LiveMatch
from bot.terminal_parts.files import Unwritable, check_new, target, write_new

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def table_png(match: LiveMatch) -> bytes | None:
    """The public table's picture, as the Discord table shows it (``None`` if the
    game draws none). Only the board is asked for: never a hand."""
    # Imported here: the presenters bring discord.py, needed only for a picture.
    from bot.discord_parts.replies import Drawing
    from bot.games import presenter_for

    _, parts = presenter_for(match.info.name).board(match)
    files = [part.file() if isinstance(part, Drawing) else part for part in parts]
    try:
        for file in files:
            data = _file_bytes(file.fp)
            if data.startswith(PNG_SIGNATURE):
                return data
        return None
    finally:
        for file in files:
            file.close()


def _file_bytes(fp: Any) -> bytes:
    if hasattr(fp, "getvalue"):
        return bytes(fp.getvalue())
    fp.seek(0)
    return bytes(fp.read())


def default_picture_name(match: LiveMatch) -> str:
    """``croupier-table-<match>-<step>.png``: one name per position of a match."""
    step = match.state.step if match.state is not None else 0
    return f"croupier-table-{match.id}-{step}.png"


def hand_png(match: LiveMatch, seat: int) -> bytes | None:
    """``seat``'s hand as its DM shows it (``None`` if the game draws none): made
    from that seat's own view only."""
    # Imported here: the presenters bring discord.py, needed only for a picture.
    from bot.games import presenter_for

    if match.state is None:
        return None
    return presenter_for(match.info.name).hand_png(match.private_view(seat))


def default_hand_name(match: LiveMatch, seat: int) -> str:
    """``croupier-hand-<match>-<seat>-<step>.png`` (the seat numbered from 1)."""
    step = match.state.step if match.state is not None else 0
    return f"croupier-hand-{match.id}-{seat + 1}-{step}.png"


def save_picture(match: LiveMatch, typed: str, folder: Path) -> tuple[bool, str]:
    """Save the public table's picture where ``typed`` puts it (the rule of
    :mod:`bot.terminal_parts.files`: nothing or a bare name, in ``folder``). Returns whether
    it was saved and what to tell the person; an existing file is never overwritten."""
    picture = table_png(match)
    if picture is None:
        return False, tr("terminal.picture.no_table", game=match.info.title)
    saved, path = _save(picture, typed, default_picture_name(match), folder)
    return saved, (tr("terminal.picture.table_saved", path=path, size=_size(picture))
                   if saved else path)


def save_hand_picture(match: LiveMatch, seat: int, typed: str, folder: Path
                      ) -> tuple[bool, str]:
    """Save ``seat``'s own hand picture as :func:`save_picture` saves the table's."""
    picture = hand_png(match, seat)
    if picture is None:
        return False, tr("terminal.picture.no_hand", game=match.info.title)
    saved, path = _save(picture, typed, default_hand_name(match, seat), folder)
    return saved, (tr("terminal.picture.hand_saved", path=path, size=_size(picture))
                   if saved else path)


def _size(picture: bytes) -> int:
    """A picture's size in whole kilobytes, rounded up."""
    return len(picture) // 1024 + 1


def _save(picture: bytes, typed: str, default: str, folder: Path) -> tuple[bool, str]:
    """Whether the picture was saved, and where (or why not, in words)."""
    try:
        path = check_new(target(typed, default, folder, suffix=".png"), folder=folder)
        write_new(path, picture)
    except Unwritable as refusal:
        return False, tr("terminal.picture.not_saved", refusal=said(refusal, None))
    return True, str(path)
