-- The usual move as one statement: a row inserted into `moves` appends one choice
-- to the log and sets its match's next deadline. The writer inserts every usual
-- move of a group in one multi-row INSERT here. Rows whose match_id is NULL are
-- padding and write nothing: the statement's row count is rounded up, so that a
-- few statement texts stay compiled.
CREATE VIEW moves AS
    SELECT c.match_id, c.seq, c.seat, c.choice, c.source, c.step, c.interaction_id,
           c.created_at, m.deadline_at, m.warned
    FROM match_choices c JOIN matches m ON m.id = c.match_id;

CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves WHEN NEW.match_id IS NOT NULL
BEGIN
    INSERT INTO match_choices (match_id, seq, seat, choice, source, step, interaction_id,
                               created_at)
    VALUES (NEW.match_id, NEW.seq, NEW.seat, NEW.choice, NEW.source, NEW.step,
            NEW.interaction_id, NEW.created_at);
    UPDATE matches SET deadline_at = NEW.deadline_at, warned = NEW.warned
    WHERE id = NEW.match_id;
END;

-- The writer keeps its last committed group's outcomes here, in that group's
-- transaction: if it dies before answering, the bot reads them back, and so
-- every write's outcome is known (storage/writer.py).
CREATE TABLE writer_last_group (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    session  INTEGER NOT NULL,     -- which bot's writer (request ids are per writer)
    outcomes TEXT    NOT NULL      -- JSON: [[request id, ok, result or message], ...]
);
