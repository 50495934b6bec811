-- Flank's option extra_stoppers came with issue 34: on the unbounded table black, who
-- moves first, gets 2 stoppers more by default, since white lays the last card. A Flank
-- match or tournament stored before it existed was played by the seed's even split, so
-- it gets 0 written in: it replays as it was played, and a tournament's later games keep
-- the rules of its first (see docs/rules/flank.md, "First player and colours").
UPDATE matches SET options = json_set(options, '$.extra_stoppers', 0)
 WHERE game = 'flank' AND json_type(options, '$.extra_stoppers') IS NULL;
UPDATE tournaments SET options = json_set(options, '$.extra_stoppers', 0)
 WHERE game = 'flank' AND json_type(options, '$.extra_stoppers') IS NULL;
