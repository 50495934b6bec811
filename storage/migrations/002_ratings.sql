-- Ratings per player per game per server, the change each rated match made, and
-- leaderboard resets. Matches against computer players are never rated.

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
-- The leaderboard and a player's rank read this index, best first.
CREATE INDEX ratings_leaderboard ON ratings (guild_id, game, ordinal DESC, user_id);

CREATE TABLE rating_changes (
    match_id       INTEGER NOT NULL REFERENCES results (match_id),
    user_id        INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    game           TEXT    NOT NULL,
    mu_before      REAL    NOT NULL,
    sigma_before   REAL    NOT NULL,
    mu_after       REAL    NOT NULL,
    sigma_after    REAL    NOT NULL,
    ordinal_before REAL    NOT NULL,
    ordinal_after  REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, user_id, match_id);

CREATE TABLE leaderboard_resets (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    reset_at TEXT    NOT NULL,
    by_user  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game)
);

CREATE INDEX matches_by_guild_game ON matches (guild_id, game, status);
