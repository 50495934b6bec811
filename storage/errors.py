"""Storage's own refusals, raised as values the service turns into replies, and how
to read an engine's error without knowing the engine."""

from __future__ import annotations


class StorageError(Exception):
    """Base of storage errors."""


class ReadOnlyStore(StorageError):
    """A write asked of a store opened read-only (the web companion's), or a read-only
    opening of a store whose schema is not the current one (nothing migrates it then)."""


class DuplicateInteraction(StorageError):
    """This interaction's choice is already in the log."""


class MatchMoved(StorageError):
    """Another process moved the match since the version a write was made from
    (docs/clusters.md): nothing of the write is stored."""


class ChannelBusy(StorageError):
    """The channel already has a live match."""


class WriterStopped(StorageError):
    """The database writer process stopped before committing a write (nothing of
    it is stored), or before answering a write that had failed."""


UNIQUE_VIOLATION = "23505"
"""PostgreSQL's SQLSTATE for a unique violation."""


def unique_violation(exc: BaseException, table: str, column: str) -> bool:
    """Whether ``exc`` (raised by a write on either engine) is a unique violation
    on ``table``'s ``column`` (one of the columns of the violated key).

    >>> import sqlite3
    >>> unique_violation(sqlite3.IntegrityError(
    ...     "UNIQUE constraint failed: match_choices.interaction_id"), "match_choices",
    ...     "interaction_id")
    True
    >>> unique_violation(sqlite3.IntegrityError("NOT NULL constraint failed: t.c"), "t", "c")
    False
    """
    message = str(exc)
    if message.startswith("UNIQUE constraint failed: "):  # SQLite: "t.a, t.b"
        columns = message.removeprefix("UNIQUE constraint failed: ").split(", ")
        return f"{table}.{column}" in columns
    driver = _driver_error(exc)
    if driver is None or getattr(driver, "sqlstate", None) != UNIQUE_VIOLATION:
        return False
    if getattr(driver, "table_name", table) != table:
        return False
    detail = getattr(driver, "detail", None) or ""  # "Key (a, b)=(1, 2) already exists."
    if not detail.startswith("Key ("):
        return False
    key = detail[len("Key ("):].split(")=", 1)[0]
    return column in (part.strip() for part in key.split(","))


MATCH_MOVED = "match moved"
"""The message of the refusal both engines raise for a stale match version
(storage/migrations/018_match_versions.sql)."""


def match_moved(exc: BaseException) -> bool:
    """Whether ``exc`` (raised by a write on either engine, or carried back from
    SQLite's writer process) is the refusal of a stale match version.

    >>> import sqlite3
    >>> match_moved(sqlite3.IntegrityError("match moved")), match_moved(ValueError("x"))
    (True, False)
    """
    if isinstance(exc, MatchMoved):
        return True
    seen: BaseException | None = exc
    for _ in range(4):  # as _driver_error: wrapped by a DBAPI adapter at most twice
        if seen is None:
            return False
        if str(seen).endswith(MATCH_MOVED) or MATCH_MOVED + "\n" in str(seen):
            return True
        seen = getattr(seen, "orig", None) or seen.__cause__
    return False


def _driver_error(exc: BaseException) -> BaseException | None:
    """The database driver's own exception behind ``exc`` (PostgreSQL's carries
    its SQLSTATE, table and detail), or ``None``."""
    seen: BaseException | None = exc
    for _ in range(4):  # the driver's error, wrapped by a DBAPI adapter at most twice
        if seen is None:
            return None
        if getattr(seen, "table_name", None) is not None or hasattr(seen, "constraint_name"):
            return seen
        seen = getattr(seen, "orig", None) or seen.__cause__
    return None
