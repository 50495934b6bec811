"""How the SQLite file is opened, by the reading connection and by the writer's
alike."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SYNCHRONOUS = "FULL"
"""SQLite's ``synchronous`` level. A choice is acknowledged only once committed,
so a commit must survive a power cut, not only the bot crashing: in WAL mode
that takes ``FULL`` (``NORMAL`` may lose the last commits). Each commit then
waits for the disk, which group commit (:mod:`storage.writer`) shares among
every write made meanwhile."""

PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    f"PRAGMA synchronous={SYNCHRONOUS}",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
"""Run on every connection as it opens."""

CACHED_STATEMENTS = 512
"""Compiled statements a connection keeps: more than sqlite3's default 128, so
that the bulk statements of every size (:data:`storage.matches.BULK_ROWS`) stay
compiled next to the other writes."""


def connect(path: str) -> sqlite3.Connection:
    """A :mod:`sqlite3` connection to ``path`` with the store's settings, in
    autocommit mode (transactions are begun explicitly) and rows readable by name.

    >>> conn = connect(":memory:")
    >>> conn.execute("PRAGMA foreign_keys").fetchone()[0]
    1
    """
    conn = sqlite3.connect(path, isolation_level=None, cached_statements=CACHED_STATEMENTS)
    conn.row_factory = sqlite3.Row
    for pragma in PRAGMAS:
        conn.execute(pragma)
    return conn


def connect_read_only(path: str | Path) -> sqlite3.Connection:
    """A read-only :mod:`sqlite3` connection to the file at ``path`` with the
    store's settings but its journal mode (a reader leaves the file's as it is):
    what copies of a store read from while the bot may be writing.
    Raises :class:`sqlite3.DatabaseError` for a file that is not a database."""
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        for pragma in PRAGMAS:
            if "journal_mode" not in pragma:
                conn.execute(pragma)
    except sqlite3.Error:
        conn.close()
        raise
    return conn
