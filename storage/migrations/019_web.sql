-- The web companion (issue 32). A server's pages are off until its moderators turn them
-- on (/config web); they live under an unguessable slug, which rotating replaces (the
-- old address then shows nothing). A player may hide their history from the pages.
CREATE TABLE web_sites (
    guild_id   INTEGER PRIMARY KEY,
    slug       TEXT    NOT NULL UNIQUE,
    enabled    INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT    NOT NULL
);

CREATE TABLE hidden_histories (
    user_id   INTEGER PRIMARY KEY,
    hidden_at TEXT    NOT NULL
);
