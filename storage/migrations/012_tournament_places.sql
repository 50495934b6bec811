-- A pairing's place (its thread or channel, tournament_pairings.thread_id) is given back
-- once its games are over: a thread archived, a channel deleted (bot/tournament_rounds.py
-- decides when). place_retired remembers it was, so a restart does not ask Discord again
-- and the tournament's history stops linking a deleted channel. A place id below 0 is no
-- Discord channel: a table of computer players only, played where nobody watches.
ALTER TABLE tournament_pairings ADD COLUMN place_retired INTEGER NOT NULL DEFAULT 0;
