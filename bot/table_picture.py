"""The local table's ``picture`` command: the public table's picture, as the
Discord table shows it, saved to a PNG file (never a hand)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

from bot.live import LiveMatch
from rules.errors import shown

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NO_PICTURE = "{title} has no table picture; nothing was saved."


def table_png(match: LiveMatch) -> bytes | None:
    """The public table's picture, as the Discord table shows it (``None`` if the
    game draws none). Only the board is asked for: never a hand."""
    # Imported here: the presenters bring discord.py, needed only for a picture.
    from bot.presenters import presenter_for
    from bot.replies import Drawing

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


def save_picture(match: LiveMatch, typed: str = "") -> tuple[bool, str]:
    """Save the public table's picture at the typed path (a folder: the default
    name in it; nothing: the default name here). Returns whether it was saved and
    what to tell the person; an existing file is never overwritten."""
    picture = table_png(match)
    if picture is None:
        return False, NO_PICTURE.format(title=match.info.title)
    try:
        path = _picture_path(match, typed.strip())
        _write_new(path, picture)
    except _Refused as refusal:
        return False, f"{refusal} Nothing was saved."
    return True, f"Table picture saved to {path} ({len(picture) // 1024 + 1} KB)."


class _Refused(Exception):
    """A path the picture cannot be saved at; the message says why."""


def _picture_path(match: LiveMatch, typed: str) -> Path:
    if any(not ch.isprintable() for ch in typed):
        raise _Refused(f"{shown(typed)} holds characters a file name cannot have.")
    path = Path(os.path.expanduser(typed)) if typed else Path(default_picture_name(match))
    if typed and os.path.isdir(path):  # isdir, unlike Path.is_dir, never raises
        path = path / default_picture_name(match)
    return path.absolute()


def _write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to a file that does not exist yet (an existing file is the
    person's: never overwritten); on failure nothing is left behind."""
    created = False
    try:
        with open(path, "xb") as out:
            created = True
            out.write(data)
    except (OSError, ValueError) as error:
        if created:  # a full disk, say: no half picture is kept
            path.unlink(missing_ok=True)
        raise _Refused(_why(path, error)) from None


def _why(path: Path, error: OSError | ValueError) -> str:
    """Why the picture cannot be written there, in words."""
    said = shown(str(path), 80)
    if isinstance(error, FileExistsError):
        return f"{said} already exists; give another name."
    if isinstance(error, FileNotFoundError):
        return f"The folder {shown(str(path.parent), 80)} does not exist."
    if isinstance(error, PermissionError):
        return f"No permission to write {said}."
    if isinstance(error, NotADirectoryError):
        return f"Part of {said} is a file, not a folder."
    if getattr(error, "errno", None) == errno.ENAMETOOLONG:
        return f"{said} is too long a file name."
    return f"Cannot write {said}: {getattr(error, 'strerror', None) or error}."
