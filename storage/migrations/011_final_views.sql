-- What of a queued finished match's last showing is out already (see 005): its
-- result post, and each seat whose final view reached them by DM (or cannot: their
-- DMs are closed). A bot that stops before the rest is out shows only the rest
-- after its restart. The rows go with the match's row in results_to_show.
ALTER TABLE results_to_show ADD COLUMN result_posted INTEGER NOT NULL DEFAULT 0;

CREATE TABLE final_views_sent (
    match_id INTEGER NOT NULL REFERENCES results_to_show (match_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
