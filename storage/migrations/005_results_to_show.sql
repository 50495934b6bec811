-- A finished match's final table and result post, until they are shown in its
-- channel. The row is written in the transaction that records the result, and
-- deleted once Discord has shown both: a bot that stops in between (or that
-- Discord kept failing) shows them after its restart.
CREATE TABLE results_to_show (
    match_id INTEGER PRIMARY KEY REFERENCES results (match_id)
);
