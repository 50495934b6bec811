-- Entrants are listed in the order they joined (among equal seeds and joined_at). That
-- order was SQLite's rowid, which PostgreSQL has not (issue 31): entry_no keeps it as a
-- column of its own on both engines, the entrant's join number within its tournament
-- (the write that enters someone sets MAX + 1; writes are serialised on both engines).
-- Entrants stored before it are numbered in the order they were listed: joined_at, rowid.
ALTER TABLE tournament_entrants ADD COLUMN entry_no INTEGER NOT NULL DEFAULT 0;
UPDATE tournament_entrants SET entry_no = (
    SELECT COUNT(*) FROM tournament_entrants AS e
     WHERE e.tournament_id = tournament_entrants.tournament_id
       AND (e.joined_at < tournament_entrants.joined_at
            OR (e.joined_at = tournament_entrants.joined_at
                AND e.rowid <= tournament_entrants.rowid)));
