-- Arcane Duel collections, built like a bank (storage/collections.py): copies of cards
-- owned per server, an append-only ledger of every ownership change, print runs with
-- serials, locks (a copy is locked by at most one trade or ante), claims, trades,
-- ante stakes and decks. Only storage/collections.py writes here, one transaction per
-- ownership change.

-- A copy of a card. Copies are never deleted; a transfer changes owner_id (and how and
-- when the current owner got it) and appends a ledger row in the same transaction.
CREATE TABLE copies (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so ledger rows stay true
    guild_id INTEGER NOT NULL,
    card     TEXT    NOT NULL,
    edition  TEXT    NOT NULL CHECK (edition IN ('unlimited', 'limited')),
    serial   INTEGER CHECK (serial IS NULL OR serial >= 1),
    owner_id INTEGER NOT NULL,
    got_how  TEXT    NOT NULL CHECK (got_how IN ('starter', 'pack', 'trade', 'ante')),
    got_at   REAL    NOT NULL,
    CHECK ((edition = 'limited') = (serial IS NOT NULL))
);
-- "Ember Drake #37 of 500" exists once per server.
CREATE UNIQUE INDEX copies_one_serial
    ON copies (guild_id, card, serial) WHERE serial IS NOT NULL;
CREATE INDEX copies_by_owner ON copies (guild_id, owner_id, card);
CREATE INDEX copies_by_card ON copies (guild_id, card);

CREATE TRIGGER copies_no_delete BEFORE DELETE ON copies
BEGIN SELECT RAISE(ABORT, 'copies are never deleted'); END;
-- What a copy is never changes: only who owns it (and how and when they got it).
CREATE TRIGGER copies_identity_fixed BEFORE UPDATE OF id, guild_id, card, edition, serial
    ON copies
BEGIN SELECT RAISE(ABORT, 'a copy''s card, edition and serial never change'); END;

-- Every ownership change. from_owner is NULL only for the row that creates the copy.
CREATE TABLE ledger (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    copy_id    INTEGER NOT NULL REFERENCES copies (id),
    from_owner INTEGER,
    to_owner   INTEGER NOT NULL,
    why        TEXT    NOT NULL CHECK (why IN ('starter', 'pack', 'trade', 'ante')),
    ref        INTEGER,            -- the pack, trade or match
    at         REAL    NOT NULL,
    CHECK ((from_owner IS NULL) = (why IN ('starter', 'pack')))
);
CREATE INDEX ledger_by_copy ON ledger (copy_id, id);
CREATE INDEX ledger_by_guild ON ledger (guild_id, id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

-- A card's limited run in a server: created with the size for its rarity on first pull.
CREATE TABLE print_runs (
    guild_id INTEGER NOT NULL,
    card     TEXT    NOT NULL,
    size     INTEGER NOT NULL CHECK (size >= 0),
    printed  INTEGER NOT NULL DEFAULT 0 CHECK (printed >= 0 AND printed <= size),
    PRIMARY KEY (guild_id, card)
);

-- The primary key is the rule: a copy is locked by at most one trade or ante.
CREATE TABLE copy_locks (
    copy_id   INTEGER PRIMARY KEY REFERENCES copies (id),
    kind      TEXT    NOT NULL CHECK (kind IN ('trade', 'ante')),
    ref       INTEGER NOT NULL,    -- the trade id or match id
    locked_at REAL    NOT NULL
);
CREATE INDEX copy_locks_by_ref ON copy_locks (kind, ref);

CREATE TABLE starter_claims (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    deck     TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE pack_claims (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    last_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE trades (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           INTEGER NOT NULL,
    offerer_id         INTEGER NOT NULL,
    receiver_id        INTEGER NOT NULL CHECK (receiver_id <> offerer_id),
    status             TEXT    NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'accepted', 'done', 'declined', 'cancelled', 'expired')),
    created_at         REAL    NOT NULL,
    expires_at         REAL    NOT NULL,
    accepted_at        REAL,
    confirm_opens_at   REAL,
    offerer_confirmed  INTEGER NOT NULL DEFAULT 0,
    receiver_confirmed INTEGER NOT NULL DEFAULT 0,
    closed_at          REAL
);
CREATE INDEX trades_live ON trades (expires_at) WHERE status IN ('open', 'accepted');

CREATE TABLE trade_copies (
    trade_id INTEGER NOT NULL REFERENCES trades (id),
    copy_id  INTEGER NOT NULL REFERENCES copies (id),
    side     TEXT    NOT NULL CHECK (side IN ('give', 'get')),  -- as the offerer sees it
    PRIMARY KEY (trade_id, copy_id)
);

-- A duel's ante: the copies staked, and whether it was paid out.
CREATE TABLE antes (
    match_id   INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'staked' CHECK (status IN ('staked', 'settled')),
    winner_id  INTEGER,            -- NULL once settled: a draw
    staked_at  REAL    NOT NULL,
    settled_at REAL
);

CREATE TABLE ante_copies (
    match_id INTEGER NOT NULL REFERENCES antes (match_id),
    copy_id  INTEGER NOT NULL REFERENCES copies (id),
    owner_id INTEGER NOT NULL,     -- who staked it
    PRIMARY KEY (match_id, copy_id)
);

CREATE TABLE decks (
    guild_id   INTEGER NOT NULL,
    owner_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    cards      TEXT    NOT NULL,   -- JSON list of card names, one per copy asked for
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, owner_id, name)
);
