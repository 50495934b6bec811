"""Croupier's storage on PostgreSQL (issue 31): the same repositories' contract as the
SQLite default, through asyncpg. Its migrations (``migrations/``, run by
:mod:`storage.postgres.migrations`) build the schema SQLite's build, version for version
(docs/storage.md; tests/test_schema_engines.py proves they match)."""
