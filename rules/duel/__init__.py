"""Arcane Duel: the trading card game of seed 003 (the engine; not yet dealt
at the table, see ``docs/rules/duel.md``)."""
