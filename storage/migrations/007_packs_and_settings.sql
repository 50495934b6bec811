-- Collections settings per server, and packs given but not yet opened.

-- Whether anyone may look at anyone's collection (/collection user), whether the daily
-- pack can be claimed, and whether a rated duel won brings a pack.
ALTER TABLE guild_settings ADD COLUMN collections_public INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN daily_pack INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN win_packs INTEGER NOT NULL DEFAULT 0;

-- A pack someone has been given (an organiser's prize, a rated win) and has not opened.
-- Opening one marks it opened in the transaction that stores its copies.
CREATE TABLE pack_credits (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    why       TEXT    NOT NULL CHECK (why IN ('prize', 'win')),
    ref       INTEGER,             -- the match won, or the organiser who gave it
    given_at  REAL    NOT NULL,
    opened_at REAL
);
-- One pack per match won, however often the result is written.
CREATE UNIQUE INDEX pack_credits_one_per_win ON pack_credits (ref) WHERE why = 'win';
CREATE INDEX pack_credits_waiting ON pack_credits (guild_id, user_id) WHERE opened_at IS NULL;
CREATE TRIGGER pack_credits_no_delete BEFORE DELETE ON pack_credits
BEGIN SELECT RAISE(ABORT, 'pack credits are never deleted'); END;
