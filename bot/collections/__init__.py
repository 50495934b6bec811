"""The collections service (Arcane Duel's cards owned, packs, decks, trades, ante) and
its hooks into the match service (``../shared/specs/collections.md``). Knows no
transport."""
