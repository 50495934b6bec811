-- A server's language (issue 33): the catalog locale (en, pt_BR …) of what the channel
-- sees, set with /config language. NULL: never chosen, so the server's preferred locale
-- as Discord reports it decides (else English). A code, never words.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
