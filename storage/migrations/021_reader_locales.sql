-- The language each person reads Croupier in (issue 33): their Discord client's locale
-- as it came with their latest interaction, as a catalog locale code (en, pt_BR …),
-- never words. What is sent to them unasked (a DM with their hand, a deadline warning)
-- is made in it; what they click is answered in the locale the click carries.
CREATE TABLE reader_locales (
    user_id  INTEGER PRIMARY KEY,
    locale   TEXT NOT NULL,
    noted_at TEXT NOT NULL
);
