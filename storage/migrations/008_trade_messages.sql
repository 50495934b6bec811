-- Where each trade's offer message is, and what it last showed, so that the bot can
-- edit it when the trade changes without a click (expiry, a restart between a change
-- and its edit): no trade's message is known only in memory.
CREATE TABLE trade_messages (
    trade_id   INTEGER PRIMARY KEY REFERENCES trades (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    shown      TEXT    NOT NULL,   -- the face shown: status:offerer_confirmed receiver_confirmed
    settled    INTEGER NOT NULL DEFAULT 0  -- 1 once it shows a closed trade: never edited again
);
-- The sweep looks only at messages that may still need an edit.
CREATE INDEX trade_messages_unsettled ON trade_messages (trade_id) WHERE settled = 0;
-- A person's open trades (/trade list).
CREATE INDEX trades_by_offerer ON trades (guild_id, offerer_id) WHERE status IN ('open', 'accepted');
CREATE INDEX trades_by_receiver ON trades (guild_id, receiver_id) WHERE status IN ('open', 'accepted');
