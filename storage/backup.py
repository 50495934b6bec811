"""A copy of a SQLite store, safe while the bot runs: SQLite's online backup API.

The copy is read in one pass inside one read transaction, so it is the store as
it was at one commit: every write committed before that point is in it, none
after, and none half. In WAL mode the bot's writer goes on committing meanwhile
(a reader never blocks a writer). The copy is written beside ``target`` and
renamed into place once checked, so a ``target`` that exists is either the old
file or the whole new one, never a part.

A PostgreSQL store is backed up with PostgreSQL's own ``pg_dump``
(docs/scaling.md).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from storage.connection import connect_read_only
from storage.errors import StorageError


class BackupRefused(StorageError):
    """The backup was not made; the message says why, in plain words."""


@dataclass(frozen=True)
class BackupMade:
    """What a finished backup holds."""

    target: Path
    schema_version: int
    matches: int
    size_bytes: int
    seconds: float


def backup(source: str | Path, target: str | Path, *, replace: bool = False) -> BackupMade:
    """Copy the store at ``source`` to ``target`` (a new file unless ``replace``).

    Raises :class:`BackupRefused` when ``source`` is not a Croupier store, when
    ``target`` exists (without ``replace``) or is the source itself, or when the
    copy fails its integrity check (nothing is left at ``target`` then), and when
    either file cannot be used (a name too long, no permission)."""
    try:
        return _backup(Path(source), Path(target), replace)
    except OSError as exc:
        raise BackupRefused(f"cannot use {unusable(exc)}") from None


def unusable(exc: OSError) -> str:
    """The file an :class:`OSError` is about, and why, for a person (a long name cut).

    >>> unusable(OSError(36, "File name too long", "/tmp/" + "x" * 300))[-25:]
    "xxx…': File name too long"
    >>> unusable(OSError(13, "Permission denied", "/root/a.db"))
    "'/root/a.db': Permission denied"
    """
    name = str(exc.filename) if exc.filename is not None else "the file"
    shown = name if len(name) <= 80 else name[:75] + "…"
    return f"{shown!r}: {exc.strerror or exc}"


def _backup(source: Path, target: Path, replace: bool) -> BackupMade:
    started = time.perf_counter()
    if not source.is_file():
        raise BackupRefused(f"there is no database file at {source}")
    if target.exists() and target.resolve() == source.resolve():
        raise BackupRefused("the backup cannot be the database file itself")
    if target.is_dir():
        raise BackupRefused(f"{target} is a folder: name the backup file to write")
    if target.exists() and not replace:
        raise BackupRefused(f"{target} exists already: choose a new name, or replace it "
                            "with --force")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        try:
            db = connect_read_only(source)
        except sqlite3.DatabaseError as exc:
            raise _not_ours(exc) from None
        with contextlib.closing(db):
            version = _schema_version(db)
            copy = sqlite3.connect(partial)
            try:
                db.backup(copy)  # every page in one step: one snapshot
                ok = copy.execute("PRAGMA quick_check").fetchone()[0]
                matches = copy.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
            finally:
                copy.close()
        if ok != "ok":
            raise BackupRefused(f"the copy failed its integrity check ({ok}); nothing was "
                                "written")
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupRefused(f"could not copy {source}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return BackupMade(target, version, int(matches), target.stat().st_size,
                      time.perf_counter() - started)


def _schema_version(db: sqlite3.Connection) -> int:
    """The store's schema version; refuses a file that is not a Croupier store."""
    try:
        row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    except sqlite3.DatabaseError as exc:
        raise _not_ours(exc) from None
    return int(row[0])


def _not_ours(exc: sqlite3.Error) -> BackupRefused:
    return BackupRefused(f"{exc}: this is not a Croupier database")
