"""The SQL the repositories write, as PostgreSQL reads it.

The repositories write one SQL text for both engines: SQLite's placeholders (``?``
and ``:name``) and the few SQLite spellings that cost less to translate than to
avoid. Everything else is written portably in the repositories themselves
(``ON CONFLICT DO NOTHING``, ``RETURNING id``, no ``rowid``). Pure and cached: a
statement text is translated once per process.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_TOKENS = re.compile(
    r"""
      (?P<text>'(?:[^']|'')*')            # a string literal, kept as written
    | (?P<quoted>"(?:[^"]|"")*")          # a quoted identifier
    | (?P<comment>--[^\n]*)               # a comment to the end of the line
    | (?P<cast>::)                        # a PostgreSQL cast, not a named parameter
    | (?P<positional>\?)
    | (?P<named>(?<![\w:]):[A-Za-z_]\w*)
    """,
    re.VERBOSE,
)
_IS = re.compile(r"\bIS(\s+NOT)?\s*$", re.IGNORECASE)
_EMPTY_IN = re.compile(r"\b(NOT\s+)?IN\s*\(\s*\)", re.IGNORECASE)
_NOCASE = re.compile(
    r"\b([A-Za-z_][\w.]*)\s*=\s*(\?|:[A-Za-z_]\w*)\s+COLLATE\s+NOCASE\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Translated:
    """A statement for asyncpg: its text with ``$n`` placeholders, and for named
    parameters the name each ``$n`` stands for (``None``: positional)."""

    sql: str
    names: tuple[str, ...] | None

    def arguments(self, params: Sequence[Any] | Mapping[str, Any]) -> tuple[Any, ...]:
        """``params`` in the order of the placeholders.

        >>> translate("SELECT :a, :b, :a").arguments({"b": 2, "a": 1})
        (1, 2)
        >>> translate("SELECT ?").arguments([7])
        (7,)
        """
        if self.names is None:
            if isinstance(params, Mapping):
                raise TypeError("positional placeholders take a sequence of parameters")
            return tuple(params)
        if not isinstance(params, Mapping):
            raise TypeError("named placeholders take a mapping of parameters")
        return tuple(params[name] for name in self.names)


@functools.lru_cache(maxsize=4096)
def translate(sql: str) -> Translated:
    """``sql`` (SQLite's placeholders) as PostgreSQL takes it.

    ``?`` become ``$1``, ``$2`` … in order; ``:name`` become one number per name
    (repeated where the name repeats). Nothing inside string literals, quoted
    identifiers or comments changes. ``x IS ?`` compares with NULL as SQLite's
    ``IS`` does, which PostgreSQL spells ``IS NOT DISTINCT FROM``. ``x = ? COLLATE
    NOCASE`` folds ASCII letters only, as ``lower`` does under the "C" collation (the
    PostgreSQL schema indexes such a column on that expression).
    An empty list, ``x IN ()`` (SQLite's, false; ``NOT IN ()`` true), is an empty
    array's ``ANY`` (``ALL``).

    >>> translate("SELECT * FROM t WHERE a = ? AND b = '?' AND c IS ?").sql
    "SELECT * FROM t WHERE a = $1 AND b = '?' AND c IS NOT DISTINCT FROM $2"
    >>> translate("SELECT 1 WHERE x IS NOT ? -- a comment?").sql
    'SELECT 1 WHERE x IS DISTINCT FROM $1 -- a comment?'
    >>> t = translate("UPDATE t SET a = :a, b = 'x:y' WHERE g = :g OR h = :g")
    >>> t.sql, t.names
    ("UPDATE t SET a = $1, b = 'x:y' WHERE g = $2 OR h = $2", ('a', 'g'))
    >>> translate("DELETE FROM d WHERE g = ? AND name = ? COLLATE NOCASE").sql
    'DELETE FROM d WHERE g = $1 AND lower(name COLLATE "C") = lower($2 COLLATE "C")'
    >>> translate("SELECT 1 WHERE a IN () OR b NOT IN ( ) OR c IN (?)").sql
    "SELECT 1 WHERE a = ANY('{}') OR b <> ALL('{}') OR c IN ($1)"
    >>> translate("SELECT x IS NULL, y::text FROM t").sql
    'SELECT x IS NULL, y::text FROM t'
    >>> translate("SELECT ? , :a")
    Traceback (most recent call last):
    ...
    ValueError: a statement mixes ? and :name placeholders
    """
    sql = _EMPTY_IN.sub(lambda m: "<> ALL('{}')" if m.group(1) else "= ANY('{}')", sql)
    sql = _NOCASE.sub(r'lower(\1 COLLATE "C") = lower(\2 COLLATE "C")', sql)
    out: list[str] = []
    names: list[str] = []
    positional = 0
    at = 0
    for token in _TOKENS.finditer(sql):
        kind = token.lastgroup
        if kind in ("text", "quoted", "comment", "cast"):
            continue
        out.append(sql[at:token.start()])
        at = token.end()
        if kind == "positional":
            positional += 1
            number = positional
        else:
            name = token.group()[1:]
            if name not in names:
                names.append(name)
            number = names.index(name) + 1
        if positional and names:
            raise ValueError("a statement mixes ? and :name placeholders")
        _compare_with_null(out)
        out.append(f"${number}")
    out.append(sql[at:])
    return Translated("".join(out), tuple(names) if names else None)


def _compare_with_null(out: list[str]) -> None:
    """Rewrite a trailing ``IS`` / ``IS NOT`` before a placeholder."""
    before = out[-1]
    found = _IS.search(before)
    if found:
        spelled = "IS DISTINCT FROM " if found.group(1) else "IS NOT DISTINCT FROM "
        out[-1] = before[:found.start()] + spelled
