"""Which language a channel and a person are spoken to in (issue 33): a channel in its
server's chosen language, else the server's preferred locale when Croupier speaks it,
else English; a person, unasked, in the locale their latest interaction carried, else
their channel's. Each person's locale is stored (a code, never words) and written only
when it changes. On both engines."""

from __future__ import annotations

import pytest

from bot.i18n import pseudo
from bot.settings.languages import Languages
from storage import Store

pytestmark = pytest.mark.engines

GUILD, ADA, BO = 700, 11, 12


async def test_a_channel_speaks_its_server_s_language(store: Store) -> None:
    preferred = {GUILD: "pt-BR"}
    languages = Languages(store, preferred=preferred.get)
    assert await languages.channel(GUILD) == "pt_BR"
    preferred[GUILD] = "ja"  # a language Croupier does not speak
    assert await languages.channel(GUILD) == "en"
    await store.settings.update(GUILD, language="pt_BR")
    assert await languages.channel(GUILD) == "pt_BR"
    assert await languages.channel(None) == "en"
    await store.settings.update(GUILD, language="qps")
    assert await languages.channel(GUILD) == "en"  # the pseudo-locale is for tests alone
    pseudo.enable()
    try:
        assert await languages.channel(GUILD) == "qps"
    finally:
        pseudo.enable(False)


async def test_a_person_is_written_to_in_their_latest_locale(store: Store) -> None:
    languages = Languages(store, preferred={GUILD: "en-US"}.get)
    assert await languages.reader(ADA, GUILD) == "en"  # never heard: the channel's
    await languages.heard(ADA, "pt_BR")
    assert await languages.reader(ADA, GUILD) == "pt_BR"
    # Another process (a fresh Languages over the same store) reads it from the store.
    assert await Languages(store).reader(ADA, GUILD) == "pt_BR"
    await languages.heard(ADA, "en")
    assert await Languages(store).reader(ADA) == "en"
    assert await store.reader_locales.of(BO) is None


async def test_a_locale_is_written_only_when_it_changes(store: Store) -> None:
    languages = Languages(store)
    await languages.heard(ADA, "pt_BR")
    first = await store.db.fetchone("SELECT noted_at FROM reader_locales WHERE user_id = ?",
                                    (ADA,))
    await store.db.execute("UPDATE reader_locales SET noted_at = 'then' WHERE user_id = ?",
                           (ADA,))
    await languages.heard(ADA, "pt_BR")
    again = await store.db.fetchone("SELECT noted_at FROM reader_locales WHERE user_id = ?",
                                    (ADA,))
    assert first is not None and again is not None and again[0] == "then"
    await languages.heard(ADA, "en")
    assert await store.reader_locales.of(ADA) == "en"
