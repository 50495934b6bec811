-- Arcane Duel's option head_start came with issue 34; its default offsets moving first
-- (the first player skips their first draw). A duel or a duel tournament stored before it
-- existed was played by the seed's literal rule (the first player draws too), so it gets
-- that value written in: it replays as it was played, and a tournament's later games keep
-- the rules of its first (see docs/rules/duel.md, "Before the duel").
UPDATE matches SET options = json_set(options, '$.head_start', 'draw')
 WHERE game = 'duel' AND json_type(options, '$.head_start') IS NULL;
UPDATE tournaments SET options = json_set(options, '$.head_start', 'draw')
 WHERE game = 'duel' AND json_type(options, '$.head_start') IS NULL;
