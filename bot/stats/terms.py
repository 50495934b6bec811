"""Ratings in words, for every side that shows them (Discord's /stats and /leaderboard,
the web's leaderboard and player pages): one place, so that both explain a rating alike.
Knows no transport. :data:`RATING_NOTE`, :data:`RATING_MEANS` and :data:`NOBODY_RATED`
are the words as phrases (``Text.in_locale``, ``bot.i18n.say``)."""

from __future__ import annotations

from bot.i18n import Text

RATING_NOTE = Text("stats.rating_note")
"""What moves a rating."""
RATING_MEANS = Text("stats.rating_means")
"""What the rating shown is."""
NOBODY_RATED = Text("stats.nobody_rated")
"""An empty leaderboard."""
