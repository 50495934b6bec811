-- /config: deadline and warning times per game (a row for game '*' covers every
-- game without a row of its own). The server-wide times move there; the locale
-- goes, since nothing reads it. And what each seat brings to a match (its deck).

CREATE TABLE guild_game_settings (
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,      -- '*': every game without its own row
    turn_seconds INTEGER,               -- NULL: the bot's default, then the game's
    warn_seconds INTEGER,               -- NULL: the bot's default
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game)
);

INSERT INTO guild_game_settings (guild_id, game, turn_seconds, warn_seconds, updated_at)
    SELECT guild_id, '*', turn_seconds, warn_seconds, updated_at FROM guild_settings
    WHERE turn_seconds IS NOT NULL OR warn_seconds IS NOT NULL;

ALTER TABLE guild_settings DROP COLUMN turn_seconds;
ALTER TABLE guild_settings DROP COLUMN warn_seconds;
ALTER TABLE guild_settings DROP COLUMN locale;

-- JSON of what the seat brings (its deck, say), or NULL.
ALTER TABLE match_seats ADD COLUMN setup TEXT;
