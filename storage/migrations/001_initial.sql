-- Croupier's first schema: matches, seats, the append-only choice log, results,
-- guild settings, players and known-closed DMs.

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    turn_seconds      INTEGER,              -- NULL: each game's own default
    warn_seconds      INTEGER,              -- NULL: the platform default
    organiser_role_id INTEGER,
    locale            TEXT    NOT NULL DEFAULT 'en',
    ante              INTEGER NOT NULL DEFAULT 0,
    updated_at        TEXT    NOT NULL
);

CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen  TEXT NOT NULL
);

CREATE TABLE matches (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    seed             INTEGER NOT NULL,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    max_seats        INTEGER NOT NULL,
    status           TEXT    NOT NULL
        CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    table_message_id INTEGER,
    deadline_at      REAL,
    warned           INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT    NOT NULL,
    started_at       TEXT,
    finished_at      TEXT
);

-- One live (lobby or active) match per channel or thread, enforced by the database itself.
CREATE UNIQUE INDEX matches_one_live_per_channel
    ON matches (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX matches_by_status ON matches (status);

CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    name     TEXT    NOT NULL,
    is_bot   INTEGER NOT NULL DEFAULT 0,
    strikes  INTEGER NOT NULL DEFAULT 0,
    state    TEXT    NOT NULL DEFAULT 'playing'
        CHECK (state IN ('playing', 'kicked', 'forfeited')),
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_user ON match_seats (user_id);

CREATE TABLE match_choices (
    match_id       INTEGER NOT NULL REFERENCES matches (id),
    seq            INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    choice         TEXT    NOT NULL,
    source         TEXT    NOT NULL
        CHECK (source IN ('player', 'bot', 'auto', 'forced', 'resign')),
    step           INTEGER NOT NULL,
    interaction_id TEXT,
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE UNIQUE INDEX match_choices_by_interaction
    ON match_choices (interaction_id) WHERE interaction_id IS NOT NULL;

-- The choice log is the match: it is only ever appended to.
CREATE TRIGGER match_choices_no_update BEFORE UPDATE ON match_choices
BEGIN SELECT RAISE(ABORT, 'match_choices is append-only'); END;
CREATE TRIGGER match_choices_no_delete BEFORE DELETE ON match_choices
BEGIN SELECT RAISE(ABORT, 'match_choices is append-only'); END;

CREATE TABLE results (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
    reason      TEXT NOT NULL,
    finished_at TEXT NOT NULL
);

CREATE TABLE result_seats (
    match_id INTEGER NOT NULL REFERENCES results (match_id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    is_bot   INTEGER NOT NULL,
    place    INTEGER NOT NULL,
    score    INTEGER,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX result_seats_by_user ON result_seats (user_id);

CREATE TABLE closed_dms (
    user_id  INTEGER PRIMARY KEY,
    noted_at REAL NOT NULL
);
