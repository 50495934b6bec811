-- Computer players come in levels (rules/core.py LEVELS): each computer seat keeps the
-- level that plays it, a lobby the level /start fills its empty seats with (chosen in
-- /play), and a tournament's computer entrant the level its games are played at. A
-- level is stored as its key. Seats and entrants from before are the computer of old:
-- normal. A person's seat keeps normal too: it is the level of the computer that
-- chooses for them (at a deadline, or once they are kicked).
ALTER TABLE match_seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal'
    CHECK (level IN ('easy', 'normal', 'hard'));
ALTER TABLE matches ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (computer_level IN ('easy', 'normal', 'hard'));
ALTER TABLE tournament_entrants ADD COLUMN level TEXT NOT NULL DEFAULT 'normal'
    CHECK (level IN ('easy', 'normal', 'hard'));
