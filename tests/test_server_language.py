"""A server's language (issue 33): never chosen, the server's preferred locale decides
when Croupier speaks it, else English; people who manage the server choose it (in
Discord's spelling or ours) or take the choice back; anything else is refused in words
of the catalog and changes nothing. On both engines."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed, said
from bot.settings.service import Manager, ServerConfig
from storage import Store

pytestmark = pytest.mark.engines

MOD = Manager(1, "mod", manages_server=True)
PLAYER = Manager(2, "player")
GUILD = 700


async def test_the_preferred_locale_decides_until_a_language_is_chosen(store: Store) -> None:
    config = ServerConfig(store)
    assert await config.language(GUILD) == "en"
    assert await config.language(GUILD, "pt-BR") == "pt_BR"
    assert await config.language(GUILD, "ja") == "en"
    assert (await config.set_language(MOD, GUILD, "pt-BR")).language == "pt_BR"
    assert await config.language(GUILD, "en-US") == "pt_BR"
    assert (await config.set_language(MOD, GUILD, "en")).language == "en"
    assert await config.language(GUILD, "pt-BR") == "en"
    assert (await config.set_language(MOD, GUILD, None)).language is None
    assert await config.language(GUILD, "pt-BR") == "pt_BR"
    # Outside a server (a DM), the person's own locale decides.
    assert await config.language(None, "pt-BR") == "pt_BR"


async def test_a_language_croupier_does_not_speak_is_refused(store: Store) -> None:
    config = ServerConfig(store)
    await config.set_language(MOD, GUILD, "pt_BR")
    with pytest.raises(NotAllowed) as refused:
        await config.set_language(MOD, GUILD, "{x} **klingon**")
    assert said(refused.value, "pt_BR") == ("O Croupier fala English, Português (Brasil); "
                                            "'{x} **klingon**' não é uma delas.")
    with pytest.raises(NotAllowed) as refused:
        await config.set_language(PLAYER, GUILD, "en")
    assert str(refused.value) == ("Only people who may manage this server can change "
                                  "Croupier's settings.")
    settings = await config.show(GUILD)
    assert settings.language == "pt_BR"
    # The other settings are kept as they were when the language changes.
    await config.set_ante(MOD, GUILD, True)
    await config.set_language(MOD, GUILD, "en")
    assert (await config.show(GUILD)).ante
