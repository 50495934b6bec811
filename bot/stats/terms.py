"""Ratings in words, for every side that shows them (Discord's /stats and /leaderboard,
the web's leaderboard and player pages): one place, so that both explain a rating alike
(issue 33 moves these to catalogs). Knows no transport."""

from __future__ import annotations

RATING_NOTE = ("Ratings move only for matches between people on this server; games against "
               "the computer and cancelled or abandoned games don't change them.")
"""What moves a rating."""
RATING_MEANS = "openskill ordinal (mu − 3σ)"
"""What the rating shown is."""
NOBODY_RATED = ("Nobody is rated in this game here yet. Finish a match between people to "
                "start the leaderboard.")
"""An empty leaderboard."""
