-- A deck's name is one per owner per server whatever its case: "Burn" and "burn" are
-- the same deck (it is typed again in /play duel deck:, and two decks that read alike
-- would be one mistake away from each other). Names are kept as typed, for display.
--
-- Decks saved before this may clash. Nothing is lost: in each clash the most recently
-- updated deck keeps its name and each other one gets " <its row id>" (unique, so two
-- renamed decks never meet), with dashes added while the result is still someone's
-- deck name, shortened to 32 characters, and always a name one can type again.
CREATE TEMP TABLE deck_clashes AS
SELECT rid, guild_id, owner_id, name FROM (
    SELECT rowid AS rid, guild_id, owner_id, name,
           ROW_NUMBER() OVER (PARTITION BY guild_id, owner_id, lower(name)
                              ORDER BY updated_at DESC, rowid DESC) AS n
      FROM decks)
 WHERE n > 1;

CREATE TEMP TABLE deck_renames AS
WITH RECURSIVE tries (rid, j, candidate) AS (
    SELECT rid, 0, rtrim(substr(name, 1, 31 - length(rid))) || ' ' || rid
      FROM deck_clashes
    UNION ALL
    SELECT t.rid, t.j + 1,
           rtrim(substr(c.name, 1, 30 - length(t.rid) - t.j)) || ' ' || t.rid
               || substr('----------', 1, t.j + 1)
      FROM tries t JOIN deck_clashes c ON c.rid = t.rid
     WHERE t.j < 10
       AND EXISTS (SELECT 1 FROM decks d
                    WHERE d.guild_id = c.guild_id AND d.owner_id = c.owner_id
                      AND lower(d.name) = lower(t.candidate))
)
SELECT rid, candidate FROM tries t
 WHERE j = (SELECT max(j) FROM tries u WHERE u.rid = t.rid);

UPDATE decks SET name = (SELECT candidate FROM deck_renames WHERE rid = decks.rowid)
 WHERE rowid IN (SELECT rid FROM deck_renames);

DROP TABLE deck_renames;
DROP TABLE deck_clashes;

CREATE UNIQUE INDEX decks_name_nocase ON decks (guild_id, owner_id, name COLLATE NOCASE);
