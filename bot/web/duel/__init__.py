"""Arcane Duel's part of the web companion: the card gallery's entries, pictures and
each server's supply of a card (:mod:`bot.web.pages.duel` serves them). Named for its
game, as ``bot/games/duel/`` is: nothing shared in ``bot/`` names a game."""
