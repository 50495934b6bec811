"""SQLite's and PostgreSQL's migrations build the same schema (issue 31, section 1).

Both schemas are built as the engines build them (SQLite through
``storage.db.Database.open``, PostgreSQL through ``storage.postgres.migrations``), read
back from each engine's catalogue, normalised (types to integer/real/text/blob, defaults
and predicates to a common spelling) and compared: tables, columns in order, NOT NULL,
defaults, identities, primary and foreign keys, unique and partial indexes, CHECKs,
views and triggers. The rules the triggers enforce are compared *by behaviour*: the same
statements run on both engines must succeed or fail alike, and leave the same rows.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from storage.connection import connect as sqlite_connect
from storage.db import Database, Migration, shipped_migrations
from storage.postgres.migrations import migrate, schema_version
from storage.postgres.migrations import shipped_migrations as shipped_migrations_pg
from tests.pgserver import PgServer

SQLITE_ONLY = frozenset({"sqlite_sequence", "writer_last_group"})
"""SQLite's own bookkeeping, and the SQLite writer process's last outcomes (left out
on PostgreSQL: see storage/postgres/migrations/016_baseline.sql)."""

TEMPLATE = "schema_engines_tpl"


# --- reading SQL text -----------------------------------------------------------------

_TOKEN = re.compile(r"""--[^\n]*|'(?:[^']|'')*'|"[^"]*"|\d+(?:\.\d+)?|\w+|\S""")


def tokens(sql: str) -> list[str]:
    """``sql``'s tokens, comments left out (SQLite keeps them in ``sqlite_master``)."""
    return [t for t in _TOKEN.findall(sql) if not t.startswith("--")]


def check_clauses(sql: str) -> list[list[str]]:
    """The token lists of every ``CHECK (...)`` in a CREATE TABLE statement."""
    toks, found, i = tokens(sql), [], 0
    while i < len(toks):
        if toks[i].upper() == "CHECK" and i + 1 < len(toks) and toks[i + 1] == "(":
            depth, j = 0, i + 1
            while True:
                depth += {"(": 1, ")": -1}.get(toks[j], 0)
                if depth == 0:
                    break
                j += 1
            found.append(toks[i + 2:j])
            i = j
        i += 1
    return found


def check_signature(toks: list[str], columns: set[str]) -> tuple:
    """A CHECK as what it mentions: the table's columns, its string and number literals.
    (PostgreSQL rewrites ``x IN (...)`` as ``x = ANY (ARRAY[...])`` and adds casts, so
    the text itself cannot be compared.)"""
    cols = sorted({t.lower() for t in toks if t.lower() in columns})
    strings = sorted(t for t in toks if t.startswith("'"))
    numbers = sorted(t for t in toks if t[0].isdigit())
    return (tuple(cols), tuple(strings), tuple(numbers))


def normal_predicate(sql: str | None) -> str | None:
    """A partial index's predicate in one spelling: casts, parentheses and spaces gone,
    ``= ANY (ARRAY[...])`` read as ``IN (...)``, lower case."""
    if sql is None:
        return None
    sql = re.sub(r"::[a-z ]+", "", sql)
    sql = re.sub(r"=\s*ANY\s*\(\s*ARRAY\[(.*?)\]\s*\)", r" IN (\1)", sql, flags=re.I)
    return re.sub(r"[()\s]", "", sql).lower()


def normal_default(value: str | None) -> object:
    """A column default in one spelling: ``'x'::text`` and ``'x'`` alike, numbers as
    numbers."""
    if value is None:
        return None
    value = re.sub(r"::[a-z ]+$", "", value.strip())
    while value.startswith("(") and value.endswith(")"):
        value = value[1:-1]
    try:
        return float(value)
    except ValueError:
        return value


def normal_type(declared: str) -> str:
    """A column type as its kind: integer, real, text or blob."""
    declared = declared.lower()
    if "int" in declared:
        return "integer"
    if any(word in declared for word in ("real", "double", "float", "numeric")):
        return "real"
    if any(word in declared for word in ("text", "char", "clob")):
        return "text"
    if declared in ("blob", "bytea"):
        return "blob"
    return declared


# --- the normalised schema ------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One column, normalised."""

    name: str
    type: str
    notnull: bool
    default: object
    identity: bool = False


@dataclass(frozen=True)
class Index:
    """An index other than a primary key's: ``name`` is ``None`` for one that backs a
    UNIQUE constraint (the engines name those each their own way). A key is a column
    name, ``lower(name)`` for an ASCII case-folded one, with `` DESC`` if descending."""

    name: str | None
    unique: bool
    keys: tuple[str, ...]
    predicate: str | None


@dataclass
class Table:
    """One table or view, normalised."""

    columns: list[Column]
    primary_key: tuple[str, ...] = ()
    foreign_keys: set[tuple] = field(default_factory=set)
    indexes: set[Index] = field(default_factory=set)
    checks: Counter = field(default_factory=Counter)


@dataclass
class Schema:
    """What a schema is made of, as comparable values."""

    tables: dict[str, Table] = field(default_factory=dict)
    views: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    triggers: set[str] = field(default_factory=set)


def sqlite_schema(conn: sqlite3.Connection) -> Schema:
    """The schema of a SQLite database, normalised."""
    schema = Schema()
    objects = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    for kind, name, _table, sql in objects:
        if kind == "trigger":
            schema.triggers.add(name)
        if kind == "view":
            schema.views[name] = [(r["name"], normal_type(r["type"]))
                                  for r in conn.execute(f"PRAGMA table_info({name})")]
        if kind != "table" or name in SQLITE_ONLY:
            continue
        info = conn.execute(f"PRAGMA table_info({name})").fetchall()
        pk = tuple(r["name"] for r in sorted(info, key=lambda r: r["pk"]) if r["pk"])
        rowid_pk = len(pk) == 1 and any(r["pk"] and r["type"].upper() == "INTEGER"
                                        for r in info)
        autoincrement = "AUTOINCREMENT" in (t.upper() for t in tokens(sql))
        table = Table(columns=[
            Column(r["name"], normal_type(r["type"]),
                   bool(r["notnull"]) or (rowid_pk and bool(r["pk"])),
                   normal_default(r["dflt_value"]), autoincrement and bool(r["pk"]))
            for r in info], primary_key=pk)
        fks: dict[int, list[sqlite3.Row]] = {}
        for r in conn.execute(f"PRAGMA foreign_key_list({name})"):
            fks.setdefault(r["id"], []).append(r)
        for rows in fks.values():
            rows.sort(key=lambda r: r["seq"])
            table.foreign_keys.add((tuple(r["from"] for r in rows), rows[0]["table"],
                                    tuple(r["to"] for r in rows), rows[0]["on_delete"]))
        for r in conn.execute(f"PRAGMA index_list({name})"):
            if r["origin"] == "pk":
                continue
            keys = []
            for k in conn.execute(f"PRAGMA index_xinfo({r['name']})"):
                if not k["key"]:
                    continue
                key = f"lower({k['name']})" if k["coll"].upper() == "NOCASE" else k["name"]
                keys.append(key + (" DESC" if k["desc"] else ""))
            index_sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                     (r["name"],)).fetchone()[0]
            predicate = (re.split(r"\bWHERE\b", index_sql, flags=re.I)[-1]
                         if r["partial"] else None)
            table.indexes.add(Index(r["name"] if r["origin"] == "c" else None,
                                    bool(r["unique"]), tuple(keys),
                                    normal_predicate(predicate)))
        columns = {c.name for c in table.columns}
        table.checks = Counter(check_signature(c, columns) for c in check_clauses(sql))
        schema.tables[name] = table
    return schema


async def postgres_schema(conn: asyncpg.Connection) -> Schema:
    """The schema of a PostgreSQL database's ``public`` schema, normalised."""
    schema = Schema()
    relations = await conn.fetch(
        "SELECT c.oid, c.relname, c.relkind::text AS relkind FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v')")
    schema.triggers = {r["tgname"] for r in await conn.fetch(
        "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'public' AND NOT t.tgisinternal")}
    for rel in relations:
        oid, name = rel["oid"], rel["relname"]
        attrs = await conn.fetch(
            "SELECT a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type,"
            " a.attnotnull, pg_get_expr(d.adbin, d.adrelid) AS dflt,"
            " a.attidentity::text AS attidentity"
            " FROM pg_attribute a LEFT JOIN pg_attrdef d"
            " ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
            " WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped"
            " ORDER BY a.attnum", oid)
        names = {a["attnum"]: a["attname"] for a in attrs}
        if rel["relkind"] == "v":
            schema.views[name] = [(a["attname"], normal_type(a["type"])) for a in attrs]
            continue
        table = Table(columns=[
            Column(a["attname"], normal_type(a["type"]), a["attnotnull"],
                   normal_default(a["dflt"]), a["attidentity"] != "")
            for a in attrs])
        for con in await conn.fetch(
                "SELECT contype::text AS contype, conkey, confkey,"
                " confrelid::regclass::text AS ref, confdeltype::text AS confdeltype,"
                " pg_get_constraintdef(oid) AS def"
                " FROM pg_constraint WHERE conrelid = $1", oid):
            if con["contype"] == "p":
                table.primary_key = tuple(names[k] for k in con["conkey"])
            elif con["contype"] == "f":
                ref_names = {r["attnum"]: r["attname"] for r in await conn.fetch(
                    "SELECT attnum, attname FROM pg_attribute WHERE attrelid = $1::regclass",
                    con["ref"])}
                table.foreign_keys.add((
                    tuple(names[k] for k in con["conkey"]), con["ref"],
                    tuple(ref_names[k] for k in con["confkey"]),
                    {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL",
                     "d": "SET DEFAULT"}[con["confdeltype"]]))
            elif con["contype"] == "c":
                columns = {c.name for c in table.columns}
                table.checks[check_signature(tokens(con["def"])[1:], columns)] += 1
        for ix in await conn.fetch(
                "SELECT i.relname, x.indisunique, x.indisprimary, x.indnkeyatts,"
                " x.indoption::int2[] AS options, x.indexrelid,"
                " pg_get_expr(x.indpred, x.indrelid) AS predicate,"
                " EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid"
                "         AND k.contype = 'u') AS constraint_backed"
                " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                " WHERE x.indrelid = $1", oid):
            if ix["indisprimary"]:
                continue
            keys = []
            for k in range(ix["indnkeyatts"]):
                key = await conn.fetchval("SELECT pg_get_indexdef($1, $2, true)",
                                          ix["indexrelid"], k + 1)
                folded = re.fullmatch(r'lower\(\(?(\w+) COLLATE "C"\)?\)', key)
                key = f"lower({folded[1]})" if folded else key
                keys.append(key + (" DESC" if ix["options"][k] & 1 else ""))
            table.indexes.add(Index(None if ix["constraint_backed"] else ix["relname"],
                                    ix["indisunique"], tuple(keys),
                                    normal_predicate(ix["predicate"])))
        schema.tables[name] = table
    return schema


def differences(sqlite: Schema, postgres: Schema, part: str) -> list[str]:
    """What differs between the two schemas in ``part`` (tables, columns, keys,
    indexes, checks, views, triggers), one line each; empty when they match."""
    found: list[str] = []
    if part == "tables":
        for name in sorted(set(sqlite.tables) ^ set(postgres.tables)):
            side = "SQLite" if name in sqlite.tables else "PostgreSQL"
            found.append(f"table {name} only on {side}")
        return found
    if part == "views":
        if sqlite.views != postgres.views:
            found.append(f"views: SQLite {sqlite.views} / PostgreSQL {postgres.views}")
        return found
    if part == "triggers":
        # PostgreSQL adds TRUNCATE guards (TRUNCATE skips row triggers), named *_no_truncate.
        extra = {t for t in postgres.triggers - sqlite.triggers
                 if not t.endswith("_no_truncate")}
        for name in sorted((sqlite.triggers - postgres.triggers) | extra):
            side = "SQLite" if name in sqlite.triggers else "PostgreSQL"
            found.append(f"trigger {name} only on {side}")
        return found
    for name in sorted(set(sqlite.tables) & set(postgres.tables)):
        mine, theirs = sqlite.tables[name], postgres.tables[name]
        pairs = {
            "columns": (mine.columns, theirs.columns),
            "keys": ((mine.primary_key, sorted(mine.foreign_keys)),
                     (theirs.primary_key, sorted(theirs.foreign_keys))),
            "indexes": (sorted(mine.indexes, key=repr), sorted(theirs.indexes, key=repr)),
            "checks": (sorted(mine.checks.items()), sorted(theirs.checks.items())),
        }
        left, right = pairs[part]
        if left != right:
            found.append(f"{name}.{part}:\n  SQLite     {left}\n  PostgreSQL {right}")
    return found


# --- building both --------------------------------------------------------------------


async def _build_template(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await migrate(conn)
    finally:
        await conn.close()


async def _postgres_copy(server: PgServer) -> str:
    """A new database holding PostgreSQL's shipped schema (a copy of the template)."""
    return await server.database(template=await server.template(TEMPLATE, _build_template))


async def _read_postgres(url: str) -> Schema:
    conn = await asyncpg.connect(url)
    try:
        return await postgres_schema(conn)
    finally:
        await conn.close()


async def _sqlite_file(folder: Path) -> Path:
    path = folder / "croupier.sqlite3"
    db = await Database.open(path)
    await db.close()
    return path


@dataclass
class Both:
    """Both engines' schemas, and where they live."""

    sqlite_path: Path
    postgres_url: str
    sqlite: Schema
    postgres: Schema


@pytest.fixture(scope="module")
def both(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Both]:
    """Each engine's shipped schema, built once for the module and read back."""
    async def build() -> Both:
        path = await _sqlite_file(tmp_path_factory.mktemp("schema"))
        url = await _postgres_copy(pg_server)
        conn = sqlite_connect(str(path))
        try:
            sqlite = sqlite_schema(conn)
        finally:
            conn.close()
        return Both(path, url, sqlite, await _read_postgres(url))

    yield asyncio.run(build())


@pytest.mark.parametrize("part", ["tables", "columns", "keys", "indexes", "checks", "views",
                                  "triggers"])
def test_schemas_match(both: Both, part: str) -> None:
    """The two engines' schemas agree in ``part``."""
    assert differences(both.sqlite, both.postgres, part) == []


def test_the_comparison_sees_what_it_compares(both: Both) -> None:
    """Guard against a comparison that reads nothing: each side has its tables, and
    the pieces that matter most are there to compare."""
    for schema in (both.sqlite, both.postgres):
        assert {"matches", "match_choices", "ledger", "decks", "tournaments"} <= set(schema.tables)
        decks = schema.tables["decks"]
        assert Index("decks_name_nocase", True, ("guild_id", "owner_id", "lower(name)"),
                     None) in decks.indexes
        assert Index("matches_one_live_per_channel", True, ("channel_id",),
                     "statusin'lobby','active'") in schema.tables["matches"].indexes
        assert Index(None, True, ("tournament_id", "round", "table_no", "game_no"),
                     None) in schema.tables["tournament_games"].indexes
        assert sum(schema.tables["copies"].checks.values()) == 4
        assert schema.tables["matches"].columns[0] == Column("id", "integer", True, None, True)
        assert "moves" in schema.views and "match_choices_no_update" in schema.triggers


def test_schema_versions_match(both: Both, pg_server: PgServer) -> None:
    """Both engines report the same schema version, and PostgreSQL's migrate is a no-op
    the second time."""
    async def check() -> tuple[int, list[int]]:
        conn = await asyncpg.connect(both.postgres_url)
        try:
            return await schema_version(conn), await migrate(conn)
        finally:
            await conn.close()

    version, applied = asyncio.run(check())
    assert version == shipped_migrations()[-1].version
    assert applied == []


def test_a_missing_piece_is_noticed(pg_server: PgServer, tmp_path: Path) -> None:
    """The comparison fails when a column, an index or a trigger is missing on either
    side (each dropped from a copy)."""
    async def damaged() -> tuple[Schema, Schema, Schema, Schema]:
        sqlite_path = await _sqlite_file(tmp_path)
        url = await _postgres_copy(pg_server)
        conn = sqlite_connect(str(sqlite_path))
        pg = await asyncpg.connect(url)
        try:
            whole_sqlite, whole_pg = sqlite_schema(conn), await postgres_schema(pg)
            conn.execute("DROP INDEX copies_one_serial")
            conn.execute("DROP TRIGGER ledger_no_update")
            await pg.execute("ALTER TABLE match_seats DROP COLUMN level;"
                             "DROP INDEX decks_name_nocase;"
                             "DROP TRIGGER tournament_games_outcome_once ON tournament_games;"
                             "ALTER TABLE copies DROP CONSTRAINT copies_check")
            return whole_sqlite, whole_pg, sqlite_schema(conn), await postgres_schema(pg)
        finally:
            conn.close()
            await pg.close()

    whole_sqlite, whole_pg, bad_sqlite, bad_pg = asyncio.run(damaged())
    report = "\n".join(line for part in ("columns", "indexes", "triggers", "checks")
                       for line in differences(bad_sqlite, whole_pg, part)
                       + differences(whole_sqlite, bad_pg, part))
    for missing in ("copies_one_serial", "ledger_no_update", "match_seats.columns",
                    "decks_name_nocase", "tournament_games_outcome_once", "copies.checks"):
        assert missing in report


# --- the rules, by behaviour ----------------------------------------------------------

OK = "ok"
UNIQUE, CHECK, FOREIGN_KEY, NOT_NULL = "unique", "check", "foreign key", "not null"

SEED = [
    "INSERT INTO matches (game, seed, guild_id, channel_id, host_id, max_seats, status,"
    " created_at) VALUES ('flank', 7, 1, 10, 100, 2, 'active', 't0')",
    "INSERT INTO matches (game, seed, guild_id, channel_id, host_id, max_seats, status,"
    " created_at) VALUES ('nails', 8, 1, 11, 100, 2, 'active', 't0')",
    "INSERT INTO match_seats (match_id, seat, user_id, name) VALUES (1, 0, 100, 'A'),"
    " (1, 1, 101, 'B')",
    "INSERT INTO match_choices (match_id, seq, seat, choice, source, step, interaction_id,"
    " created_at) VALUES (1, 1, 0, 'c1', 'player', 1, 'i1', 't1')",
    "INSERT INTO results (match_id, reason, finished_at) VALUES (2, 'win', 't9')",
    "INSERT INTO results_to_show (match_id) VALUES (2)",
    "INSERT INTO final_views_sent (match_id, seat) VALUES (2, 0), (2, 1)",
    "INSERT INTO copies (guild_id, card, edition, serial, owner_id, got_how, got_at)"
    " VALUES (1, 'Ember Drake', 'limited', 1, 100, 'pack', 1.5),"
    " (1, 'Ember Drake', 'unlimited', NULL, 100, 'starter', 1.5)",
    "INSERT INTO ledger (guild_id, copy_id, from_owner, to_owner, why, ref, at)"
    " VALUES (1, 1, NULL, 100, 'pack', 5, 1.5)",
    "INSERT INTO pack_credits (guild_id, user_id, why, ref, given_at)"
    " VALUES (1, 100, 'win', 2, 1.5)",
    "INSERT INTO tournaments (guild_id, channel_id, name, game, format, organiser_id, status,"
    " seed, round, created_at) VALUES (1, 10, 'Cup', 'flank', 'swiss', 100, 'running', 3, 1,"
    " 't0'), (1, 10, 'Later', 'flank', 'swiss', 100, 'open', 4, 0, 't0')",
    "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at)"
    " VALUES (1, 100, 'A', 't0'), (1, 101, 'B', 't0'), (2, 100, 'A', 't0')",
    "INSERT INTO tournament_pairings (tournament_id, round, table_no, seats, status, match_id,"
    " games) VALUES (1, 1, 1, '[100, 101]', 'playing', 1, '[0, 0]')",
    "INSERT INTO tournament_games (match_id, tournament_id, round, table_no, game_no)"
    " VALUES (1, 1, 1, 1, 1)",
    "INSERT INTO tournament_audit (tournament_id, round, action, by_user, at, new)"
    " VALUES (1, 1, 'result', 100, 't1', '{}')",
]
"""Rows every rule below is tried against (run in order on both engines)."""

RULES: list[tuple[str, str, str | None]] = [
    # (statement, expected outcome: OK, a constraint kind or a trigger's message, trigger)
    ("UPDATE match_choices SET choice = 'x'", "match_choices is append-only",
     "match_choices_no_update"),
    ("DELETE FROM match_choices", "match_choices is append-only", "match_choices_no_delete"),
    ("INSERT INTO match_choices (match_id, seq, seat, choice, source, step, interaction_id,"
     " created_at) VALUES (1, 9, 0, 'c', 'player', 9, 'i1', 't')", UNIQUE, None),
    ("INSERT INTO match_choices (match_id, seq, seat, choice, source, step, created_at)"
     " VALUES (1, 9, 0, 'c', 'cheat', 9, 't')", CHECK, None),
    ("INSERT INTO match_choices (match_id, seq, seat, choice, source, step, created_at)"
     " VALUES (999, 1, 0, 'c', 'player', 1, 't')", FOREIGN_KEY, None),
    ("INSERT INTO moves VALUES (1, 2, 1, 'c2', 'player', 2, 'i2', 't2', 99.5, 1, 0),"
     " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)", OK, "moves_insert"),
    ("INSERT INTO moves VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
     " NULL)", OK, "moves_insert"),
    ("INSERT INTO moves VALUES (1, 3, 0, 'c3', 'player', 3, 'i2', 't3', 5.0, 0, -1)", UNIQUE,
     "moves_insert"),
    # The version the move was made from (migration 018): 0 was bumped to 1 above.
    ("INSERT INTO moves VALUES (1, 3, 0, 'c3', 'player', 3, 'i3', 't3', 5.0, 0, 0)",
     "match moved", "moves_insert"),
    ("INSERT INTO moves VALUES (1, 3, 0, 'c3', 'player', 3, 'i3', 't3', 5.0, 0, 1),"
     " (1, 4, 1, 'c4', 'player', 4, NULL, 't4', 6.0, 0, NULL)", OK, "moves_insert"),
    ("INSERT INTO moves VALUES (1, 5, 0, 'c5', 'player', 5, NULL, 't5', 7.0, 0, -1)", OK,
     "moves_insert"),
    ("INSERT INTO moves VALUES (1, 6, 0, 'c6', 'player', 6, NULL, 't6', 7.0, 0, 2)",
     "match moved", "moves_insert"),
    ("INSERT INTO matches (game, seed, channel_id, host_id, max_seats, status, created_at)"
     " VALUES ('flank', 1, 10, 100, 2, 'lobby', 't')", UNIQUE, None),
    ("INSERT INTO matches (game, seed, channel_id, host_id, max_seats, status, created_at)"
     " VALUES ('flank', 1, 10, 100, 2, 'finished', 't')", OK, None),
    ("INSERT INTO matches (game, seed, channel_id, host_id, max_seats, status, created_at)"
     " VALUES ('flank', 1, NULL, 100, 2, 'finished', 't')", NOT_NULL, None),
    ("INSERT INTO match_seats (match_id, seat, name, level) VALUES (1, 2, 'C', 'expert')",
     CHECK, None),
    ("DELETE FROM results_to_show WHERE match_id = 2", OK, None),  # cascades its views
    ("UPDATE copies SET owner_id = 101, got_how = 'trade' WHERE id = 1", OK, None),
    ("UPDATE copies SET card = 'Frost Wyrm' WHERE id = 2", "a copy's card, edition and"
     " serial never change", "copies_identity_fixed"),
    ("UPDATE copies SET serial = serial WHERE id = 1", "a copy's card, edition and serial"
     " never change", "copies_identity_fixed"),
    ("DELETE FROM copies WHERE id = 2", "copies are never deleted", "copies_no_delete"),
    ("INSERT INTO copies (guild_id, card, edition, serial, owner_id, got_how, got_at)"
     " VALUES (1, 'Ember Drake', 'limited', 1, 101, 'pack', 2.0)", UNIQUE, None),
    ("INSERT INTO copies (guild_id, card, edition, serial, owner_id, got_how, got_at)"
     " VALUES (1, 'Ember Drake', 'limited', NULL, 101, 'pack', 2.0)", CHECK, None),
    ("UPDATE ledger SET to_owner = 101", "the ledger is append-only", "ledger_no_update"),
    ("DELETE FROM ledger", "the ledger is append-only", "ledger_no_delete"),
    ("INSERT INTO ledger (guild_id, copy_id, from_owner, to_owner, why, at)"
     " VALUES (1, 1, NULL, 101, 'trade', 2.0)", CHECK, None),
    ("INSERT INTO ledger (guild_id, copy_id, from_owner, to_owner, why, at)"
     " VALUES (1, 1, 100, 101, 'trade', 2.0)", OK, None),
    ("INSERT INTO pack_credits (guild_id, user_id, why, ref, given_at)"
     " VALUES (1, 101, 'win', 2, 2.0)", UNIQUE, None),
    ("UPDATE pack_credits SET opened_at = 3.0", OK, None),
    ("DELETE FROM pack_credits", "pack credits are never deleted", "pack_credits_no_delete"),
    ("INSERT INTO decks (guild_id, owner_id, name, cards, updated_at)"
     " VALUES (1, 100, 'Burn', '[]', 1.0)", OK, None),
    ("INSERT INTO decks (guild_id, owner_id, name, cards, updated_at)"
     " VALUES (1, 100, 'bURN', '[]', 1.0)", UNIQUE, None),
    ("INSERT INTO decks (guild_id, owner_id, name, cards, updated_at)"
     " VALUES (1, 101, 'bURN', '[]', 1.0)", OK, None),
    # NOCASE folds ASCII only: 'É' and 'é' are two names on both engines.
    ("INSERT INTO decks (guild_id, owner_id, name, cards, updated_at)"
     " VALUES (1, 100, 'É', '[]', 1.0), (1, 100, 'é', '[]', 1.0)", OK, None),
    ("INSERT INTO trades (guild_id, offerer_id, receiver_id, created_at, expires_at)"
     " VALUES (1, 100, 100, 1.0, 2.0)", CHECK, None),
    ("UPDATE tournaments SET name = 'Big Cup', round = 2 WHERE id = 1", OK, None),
    ("UPDATE tournaments SET seed = 9 WHERE id = 1", "a tournament's server, game, format"
     " and seed never change", "tournaments_identity_fixed"),
    ("UPDATE tournaments SET cut_after = 5 WHERE id = 1", CHECK, None),
    ("UPDATE tournaments SET status = 'finished' WHERE id = 1", OK, "tournaments_final_status"),
    ("UPDATE tournaments SET status = 'finished', round = 3 WHERE id = 1", OK,
     "tournaments_final_status"),
    ("UPDATE tournaments SET status = 'running' WHERE id = 1", "a finished or cancelled"
     " tournament stays so", "tournaments_final_status"),
    ("DELETE FROM tournaments WHERE id = 2", "tournaments are never deleted",
     "tournaments_no_delete"),
    ("DELETE FROM tournament_entrants WHERE tournament_id = 1 AND user_id = 101",
     "entrants of a started tournament drop; they are never removed",
     "tournament_entrants_kept"),
    ("DELETE FROM tournament_entrants WHERE tournament_id = 2", OK, "tournament_entrants_kept"),
    ("UPDATE tournament_pairings SET seats = '[101, 100]'", "a pairing's round, table and"
     " seats never change", "tournament_pairings_seats_fixed"),
    ("UPDATE tournament_pairings SET status = 'done'", CHECK, None),
    ("UPDATE tournament_pairings SET status = 'done', places = '[1, 2]',"
     " decided_by = 'play'", OK, None),
    ("DELETE FROM tournament_pairings", "pairings are never deleted",
     "tournament_pairings_no_delete"),
    ("UPDATE tournament_games SET outcome = 'counted'", OK, "tournament_games_outcome_once"),
    ("UPDATE tournament_games SET outcome = 'ignored'", "a tournament game's outcome is set"
     " once", "tournament_games_outcome_once"),
    ("DELETE FROM tournament_games", "tournament games are never deleted",
     "tournament_games_no_delete"),
    ("UPDATE tournament_audit SET why = 'x'", "the tournament audit is append-only",
     "tournament_audit_no_update"),
    ("DELETE FROM tournament_audit", "the tournament audit is append-only",
     "tournament_audit_no_delete"),
]
"""Each rule the schema enforces, tried once: the outcome each engine must give."""


def _sqlite_outcome(exc: sqlite3.Error) -> str:
    message = str(exc)
    for prefix, kind in (("UNIQUE constraint", UNIQUE), ("CHECK constraint", CHECK),
                         ("FOREIGN KEY constraint", FOREIGN_KEY),
                         ("NOT NULL constraint", NOT_NULL)):
        if message.startswith(prefix):
            return kind
    return message


def _postgres_outcome(exc: asyncpg.PostgresError) -> str:
    kinds = {asyncpg.UniqueViolationError: UNIQUE, asyncpg.CheckViolationError: CHECK,
             asyncpg.ForeignKeyViolationError: FOREIGN_KEY,
             asyncpg.NotNullViolationError: NOT_NULL}
    for cls, kind in kinds.items():
        if isinstance(exc, cls):
            return kind
    return exc.args[0] if exc.args else str(exc)


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if r[0] not in SQLITE_ONLY | {"schema_migrations"}]


def _rows(rows: list, skip: int | None) -> list[tuple]:
    return sorted((tuple(v for i, v in enumerate(r) if i != skip) for r in rows), key=repr)


def _identity_column(schema: Schema, table: str) -> int | None:
    """Where ``table``'s identity column is. Its values are not compared: a failed
    insert uses up a PostgreSQL sequence value and no SQLite AUTOINCREMENT one, so ids
    may have gaps on PostgreSQL (unique and never reused on both)."""
    columns = schema.tables[table].columns
    return next((i for i, c in enumerate(columns) if c.identity), None)


async def _run_on_postgres(url: str, tables: dict[str, int | None]) -> tuple[list[str], dict]:
    conn = await asyncpg.connect(url)
    try:
        for sql in SEED:
            await conn.execute(sql)
        outcomes = []
        for sql, _expected, _trigger in RULES:
            try:
                async with conn.transaction():
                    await conn.execute(sql)
                outcomes.append(OK)
            except asyncpg.PostgresError as exc:
                outcomes.append(_postgres_outcome(exc))
        return outcomes, {t: _rows(await conn.fetch(f"SELECT * FROM {t}"), skip)
                          for t, skip in tables.items()}
    finally:
        await conn.close()


def _run_on_sqlite(path: Path, tables: dict[str, int | None]) -> tuple[list[str], dict]:
    conn = sqlite_connect(str(path))
    try:
        for sql in SEED:
            conn.execute(sql)
        outcomes = []
        for sql, _expected, _trigger in RULES:
            try:
                conn.execute(sql)
                outcomes.append(OK)
            except sqlite3.Error as exc:
                outcomes.append(_sqlite_outcome(exc))
        return outcomes, {t: _rows(conn.execute(f"SELECT * FROM {t}").fetchall(), skip)
                          for t, skip in tables.items()}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def behaviour(pg_server: PgServer, tmp_path_factory: pytest.TempPathFactory,
              both: Both) -> dict[str, tuple[list[str], dict]]:
    """The rules tried on a fresh copy of each engine's schema: each statement's outcome,
    and every table's rows afterwards."""
    async def run() -> dict[str, tuple[list[str], dict]]:
        path = await _sqlite_file(tmp_path_factory.mktemp("rules"))
        conn = sqlite_connect(str(path))
        try:
            tables = {t: _identity_column(both.sqlite, t) for t in _tables(conn)}
        finally:
            conn.close()
        return {"sqlite": _run_on_sqlite(path, tables),
                "postgres": await _run_on_postgres(await _postgres_copy(pg_server), tables)}

    return asyncio.run(run())


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
def test_rules_hold(behaviour: dict, engine: str) -> None:
    """On each engine every rule gives its expected outcome: append-only tables refuse
    UPDATE and DELETE with the trigger's message, partial unique indexes refuse only
    inside their predicate, CHECKs and foreign keys hold, and ``moves`` inserts."""
    outcomes, _ = behaviour[engine]
    wrong = [f"{sql}\n  expected {expected!r}, got {got!r}"
             for (sql, expected, _), got in zip(RULES, outcomes, strict=True)
             if got != expected]
    assert wrong == []


def test_same_rows_afterwards(behaviour: dict) -> None:
    """After the same statements, every table holds the same rows on both engines (the
    ``moves`` view's insert included: the choices of the moves it let through added,
    the deadline set, the version bumped once per move, padding ignored)."""
    sqlite_rows, postgres_rows = behaviour["sqlite"][1], behaviour["postgres"][1]
    assert sqlite_rows == postgres_rows
    assert (1, 2, 1, "c2", "player", 2, "i2", "t2") in sqlite_rows["match_choices"]
    assert [r[1] for r in sqlite_rows["match_choices"]] == [1, 2, 3, 4, 5]
    flank = next(r for r in sqlite_rows["matches"] if r[2] == 7)  # id left out: seed is [2]
    # deadline_at and warned set by the last move, three moves let through
    assert (flank[9], flank[10], flank[15]) == (7.0, 0, 3)
    assert sqlite_rows["final_views_sent"] == []


def test_every_trigger_is_exercised(both: Both) -> None:
    """Every SQLite trigger has a rule above that tries it, so a trigger missing (or
    added) on either engine shows up as a different outcome."""
    tried = {trigger for _, _, trigger in RULES if trigger}
    assert both.sqlite.triggers <= tried


def test_a_failing_migration_leaves_nothing_behind(pg_server: PgServer) -> None:
    """A PostgreSQL migration is one transaction: one that fails half way leaves neither
    its first statements nor a row in schema_migrations, and one out of sequence is
    refused before anything runs."""
    async def run() -> tuple[int, bool]:
        conn = await asyncpg.connect(await _postgres_copy(pg_server))
        try:
            shipped = shipped_migrations_pg()
            await migrate(conn, shipped)
            last = shipped[-1].version
            broken = [*shipped, Migration(
                last + 1, "broken", "CREATE TABLE t_next (x BIGINT); SELECT no_such_function()")]
            with pytest.raises(asyncpg.UndefinedFunctionError):
                await migrate(conn, broken)
            with pytest.raises(RuntimeError, match="without gaps"):
                await migrate(conn, [*shipped, Migration(last + 2, "gap", "")])
            return (await schema_version(conn) - last,
                    await conn.fetchval("SELECT to_regclass('t_next') IS NOT NULL"))
        finally:
            await conn.close()

    behind, made = asyncio.run(run())
    assert (behind, made) == (0, False)
