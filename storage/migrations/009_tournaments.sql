-- Tournaments run by the bot itself (storage/tournaments.py; the spec: tournaments.md).
-- A tournament, like a match, is data that replays: its entrants, the results of its
-- pairings and a seed; the formats (rules/tournament/) work everything else out from
-- them. Every game of a pairing is an ordinary match, linked here so that the write
-- recording a match's result also adds the game to its pairing, in one transaction.
-- Only storage/tournaments.py writes these tables (storage/matches.py calls into it).

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,     -- where it was created and is announced
    message_id      INTEGER,              -- its message there (join/leave/check-in buttons)
    name            TEXT    NOT NULL,
    game            TEXT    NOT NULL,
    format          TEXT    NOT NULL
        CHECK (format IN ('swiss', 'single', 'double', 'round_robin', 'pods')),
    options         TEXT    NOT NULL DEFAULT '{}',   -- the game's options, JSON
    settings        TEXT    NOT NULL DEFAULT '{}',   -- best-of, rounds, top cut, … JSON
    organiser_id    INTEGER NOT NULL,     -- who created it
    status          TEXT    NOT NULL
        CHECK (status IN ('created', 'open', 'checkin', 'running', 'finished', 'cancelled')),
    seed            INTEGER NOT NULL,
    round           INTEGER NOT NULL DEFAULT 0,      -- the current round (0: not started)
    cut_after       INTEGER,              -- the last round before the top cut, once it began
    announced_round INTEGER NOT NULL DEFAULT 0,      -- the last round whose pairings were posted
    announced_done  INTEGER NOT NULL DEFAULT 0,      -- the last round posted as complete
    final_announced INTEGER NOT NULL DEFAULT 0,      -- the final standings (or the cancel) posted
    created_at      TEXT    NOT NULL,
    started_at      TEXT,
    finished_at     TEXT,
    CHECK (cut_after IS NULL OR cut_after <= round)
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_by_status ON tournaments (status);

-- What a tournament is never changes once created: only its state does.
CREATE TRIGGER tournaments_identity_fixed
    BEFORE UPDATE OF id, guild_id, game, format, seed, created_at ON tournaments
BEGIN SELECT RAISE(ABORT, 'a tournament''s server, game, format and seed never change'); END;
CREATE TRIGGER tournaments_no_delete BEFORE DELETE ON tournaments
BEGIN SELECT RAISE(ABORT, 'tournaments are never deleted'); END;
-- Finished and cancelled are final.
CREATE TRIGGER tournaments_final_status BEFORE UPDATE OF status ON tournaments
    WHEN OLD.status IN ('finished', 'cancelled') AND NEW.status <> OLD.status
BEGIN SELECT RAISE(ABORT, 'a finished or cancelled tournament stays so'); END;

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    seed          INTEGER,              -- 1 the top seed; set when the tournament starts
    cut_seed      INTEGER,              -- their seed in the top cut, if they made it
    checked_in    INTEGER NOT NULL DEFAULT 0,
    dropped_after INTEGER,              -- the last round they played (0: before round 1)
    disqualified  INTEGER NOT NULL DEFAULT 0,
    no_shows      INTEGER NOT NULL DEFAULT 0,
    final_rank    INTEGER,              -- their place in the final standings
    joined_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, user_id),
    CHECK (disqualified = 0 OR dropped_after IS NOT NULL)
);
CREATE UNIQUE INDEX tournament_entrants_one_seed
    ON tournament_entrants (tournament_id, seed) WHERE seed IS NOT NULL;
CREATE INDEX tournament_entrants_by_user ON tournament_entrants (user_id);

-- Once a tournament started, its entrants stay: they drop instead, keeping their results.
CREATE TRIGGER tournament_entrants_kept BEFORE DELETE ON tournament_entrants
    WHEN (SELECT status FROM tournaments WHERE id = OLD.tournament_id)
         NOT IN ('created', 'open', 'checkin')
BEGIN SELECT RAISE(ABORT, 'entrants of a started tournament drop; they are never removed'); END;

-- One match of a round: its seats (entrant ids, JSON, in seat order), what it decides
-- (label), and its result as the formats read it (rules/tournament/model.py Result).
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    stage         TEXT    NOT NULL DEFAULT 'main' CHECK (stage IN ('main', 'cut')),
    seats         TEXT    NOT NULL,     -- JSON list of user ids; one id: a bye
    label         TEXT    NOT NULL DEFAULT '',
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'playing', 'done')),
    match_id      INTEGER REFERENCES matches (id),   -- the current (or last) game's match
    thread_id     INTEGER,              -- where its games are played
    games         TEXT    NOT NULL,     -- JSON: games won per seat
    drawn_games   INTEGER NOT NULL DEFAULT 0,
    places        TEXT,                 -- JSON: each seat's place, once done
    both_lose     INTEGER NOT NULL DEFAULT 0,
    decided_by    TEXT                  -- 'play', 'bye', 'organiser', 'absence', 'drop'
        CHECK (decided_by IS NULL OR decided_by IN
               ('play', 'bye', 'organiser', 'absence', 'drop')),
    PRIMARY KEY (tournament_id, round, table_no),
    CHECK ((status = 'done') = (places IS NOT NULL))
);
-- A match's place is one pairing's.
CREATE UNIQUE INDEX tournament_pairings_one_thread
    ON tournament_pairings (thread_id) WHERE thread_id IS NOT NULL;
CREATE TRIGGER tournament_pairings_no_delete BEFORE DELETE ON tournament_pairings
BEGIN SELECT RAISE(ABORT, 'pairings are never deleted'); END;
CREATE TRIGGER tournament_pairings_seats_fixed
    BEFORE UPDATE OF tournament_id, round, table_no, stage, seats ON tournament_pairings
BEGIN SELECT RAISE(ABORT, 'a pairing''s round, table and seats never change'); END;

-- Each game of a pairing: an ordinary match. outcome: NULL while it is played;
-- 'counted' (added to its pairing), 'ignored' (its pairing was already decided), or
-- 'cancelled' / 'abandoned' (closed without a result: nothing counted).
CREATE TABLE tournament_games (
    match_id      INTEGER PRIMARY KEY REFERENCES matches (id),
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    game_no       INTEGER NOT NULL CHECK (game_no >= 1),
    outcome       TEXT CHECK (outcome IS NULL OR outcome IN
                              ('counted', 'ignored', 'cancelled', 'abandoned')),
    UNIQUE (tournament_id, round, table_no, game_no),
    FOREIGN KEY (tournament_id, round, table_no)
        REFERENCES tournament_pairings (tournament_id, round, table_no)
);
CREATE TRIGGER tournament_games_no_delete BEFORE DELETE ON tournament_games
BEGIN SELECT RAISE(ABORT, 'tournament games are never deleted'); END;
-- A game's outcome is set once.
CREATE TRIGGER tournament_games_outcome_once BEFORE UPDATE ON tournament_games
    WHEN OLD.outcome IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a tournament game''s outcome is set once'); END;

-- Every result the organiser enters or corrects, every drop, disqualification and
-- no-show, and a cancel: who (by_user; 0 the bot itself), when, the old and new
-- values (JSON), why.
CREATE TABLE tournament_audit (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    table_no      INTEGER,              -- the pairing, for results
    user_id       INTEGER,              -- the entrant, for drops and no-shows
    action        TEXT    NOT NULL
        CHECK (action IN ('result', 'drop', 'disqualify', 'no_show', 'cancel')),
    by_user       INTEGER NOT NULL,
    at            TEXT    NOT NULL,
    old           TEXT,
    new           TEXT    NOT NULL,
    why           TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX tournament_audit_by_tournament ON tournament_audit (tournament_id, id);

CREATE TRIGGER tournament_audit_no_update BEFORE UPDATE ON tournament_audit
BEGIN SELECT RAISE(ABORT, 'the tournament audit is append-only'); END;
CREATE TRIGGER tournament_audit_no_delete BEFORE DELETE ON tournament_audit
BEGIN SELECT RAISE(ABORT, 'the tournament audit is append-only'); END;
