-- Entrants are listed in the order they joined (among equal seeds and joined_at): SQLite
-- kept that order in its rowid, which PostgreSQL has not. entry_no, the entrant's join
-- number within its tournament, keeps it on both engines (the write that enters someone
-- sets MAX + 1). A PostgreSQL database starts at the baseline with no entrants, and a copy
-- from SQLite (croupier migrate) brings them numbered: no backfill here.
ALTER TABLE tournament_entrants ADD COLUMN entry_no BIGINT NOT NULL DEFAULT 0;
