"""Arcane Duel's own services (``../shared/specs/collections.md``): the collections
service (cards owned, packs, decks, trades, ante) and its hooks into the match service.
Knows no transport; its Discord and terminal screens are in :mod:`bot.games.duel`."""
