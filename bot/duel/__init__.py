"""Arcane Duel's own runtime beyond its table: the collections service (cards owned,
packs, decks, trades, ante), over :mod:`storage.collections`."""
