-- Any process serves any match (issue 31, docs/clusters.md): every write that moves a
-- match bumps its version, and a write made from what a process last saw carries that
-- version and is refused ('match moved', nothing stored) if another process moved the
-- match first. A move's log rows are written through the moves view: its first row
-- carries the version (-1: a write that checks none; the others NULL), and the trigger
-- checks and bumps it. The
-- conditional UPDATE takes the match row's lock, so two processes moving one match
-- queue there (within lock_timeout) and the second finds the version moved.
ALTER TABLE matches ADD COLUMN version BIGINT NOT NULL DEFAULT 0;

DROP TRIGGER moves_insert ON moves;
DROP VIEW moves;
CREATE VIEW moves AS
    SELECT c.match_id, c.seq, c.seat, c.choice, c.source, c.step, c.interaction_id,
           c.created_at, m.deadline_at, m.warned, m.version
    FROM match_choices c JOIN matches m ON m.id = c.match_id;

CREATE OR REPLACE FUNCTION moves_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- An INSTEAD OF trigger takes no WHEN clause: SQLite's WHEN is this test.
    IF NEW.match_id IS NULL THEN
        RETURN NULL;
    END IF;
    IF NEW.version IS NOT NULL THEN
        UPDATE matches SET deadline_at = NEW.deadline_at, warned = NEW.warned,
                           version = version + 1
        WHERE id = NEW.match_id AND (NEW.version < 0 OR version = NEW.version);
        IF NOT FOUND THEN
            RAISE EXCEPTION 'match moved' USING ERRCODE = 'P0001';
        END IF;
    ELSE
        UPDATE matches SET deadline_at = NEW.deadline_at, warned = NEW.warned
        WHERE id = NEW.match_id;
    END IF;
    INSERT INTO match_choices (match_id, seq, seat, choice, source, step, interaction_id,
                               created_at)
    VALUES (NEW.match_id, NEW.seq, NEW.seat, NEW.choice, NEW.source, NEW.step,
            NEW.interaction_id, NEW.created_at);
    RETURN NEW;
END;
$$;
CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_insert();
