-- Any process serves any match (issue 31, docs/clusters.md): every write that moves a
-- match bumps its version, and a write made from what a process last saw carries that
-- version and is refused ('match moved', nothing stored) if another process moved the
-- match first. A move's log rows are written through the moves view: its first row
-- carries the version (-1: a write that checks none; the others NULL), and the trigger
-- checks and bumps it.
ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER moves_insert;
DROP VIEW moves;
CREATE VIEW moves AS
    SELECT c.match_id, c.seq, c.seat, c.choice, c.source, c.step, c.interaction_id,
           c.created_at, m.deadline_at, m.warned, m.version
    FROM match_choices c JOIN matches m ON m.id = c.match_id;

CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves WHEN NEW.match_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'match moved')
    WHERE NEW.version >= 0
      AND NEW.version IS NOT (SELECT version FROM matches WHERE id = NEW.match_id);
    INSERT INTO match_choices (match_id, seq, seat, choice, source, step, interaction_id,
                               created_at)
    VALUES (NEW.match_id, NEW.seq, NEW.seat, NEW.choice, NEW.source, NEW.step,
            NEW.interaction_id, NEW.created_at);
    UPDATE matches SET deadline_at = NEW.deadline_at, warned = NEW.warned,
                       version = version + (NEW.version IS NOT NULL)
    WHERE id = NEW.match_id;
END;
