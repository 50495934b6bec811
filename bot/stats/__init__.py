"""Players' statistics and leaderboards, read from storage. Knows no transport."""
