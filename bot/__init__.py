"""Croupier's runtime: the services (which know no transport), the Discord side and the
terminal side that show them, each game's outside, and the parts those are built from.
The layers, top to bottom, are drawn in docs/architecture.md and held by the import
contracts in pyproject.toml."""
