-- Hammer & Nails' option final_round came with issue 34: by default, once a player goes out
-- each other player has one last turn (the first mover scored about 42 % in self-play when
-- the round always ended with the dealer, who moves second). A match or tournament stored
-- before it existed was played to the dealer, so it gets final_round:dealer written in: it
-- replays as it was played, and a tournament's later games keep the rules of its first
-- (see docs/rules/nails.md, "Fair seats").
UPDATE matches SET options = json_set(options, '$.final_round', 'dealer')
 WHERE game = 'nails' AND json_type(options, '$.final_round') IS NULL;
UPDATE tournaments SET options = json_set(options, '$.final_round', 'dealer')
 WHERE game = 'nails' AND json_type(options, '$.final_round') IS NULL;
