"""Arcane Duel's collections through the real discord.py client and the fake Discord:
/starter, /pack (open, give, list), /collection with its page buttons and the
server's privacy setting, /card's counts, every /deck command, a whole trade with its
confirm window on a fake clock (repeats, replays, strangers and forged buttons doing
nothing), a restart between the offer and the confirmations, the expiry sweep, and
/audit."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.clock import FakeClock
from rules.duel.decks import starter
from tests.e2e import make_bot, pictured
from tests.fakediscord import CommandNotAvailable
from tests.fakediscord.model.constants import MANAGE_GUILD
from tests.images import opened

REFUSAL = "⚠️"
RED_GREEN, BLUE_BLACK = "ember-and-grove", "tide-and-night"


def button_labels(message) -> list[str]:
    return [b.label for b in message.buttons]


async def recorded(bot, offered) -> None:
    """Wait until the bot has recorded an offer's message (it does so just after
    answering the command)."""
    for _ in range(200):
        trades = await bot.store.db.fetchall("SELECT 1 FROM trade_messages WHERE message_id = ?",
                                             (offered.message.id,))
        if trades:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the offer's message was never recorded")


async def ledger_rows(bot, why: str | None = None) -> int:
    sql = "SELECT COUNT(*) FROM ledger" + (" WHERE why = ?" if why else "")
    row = await bot.store.db.fetchone(sql, (why,) if why else ())
    return int(row[0])


async def test_starter_packs_and_cards(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("cards")
    organisers = guild.add_role("Organisers")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    orla = fake_discord.add_user("Orla", roles=(organisers,))
    clock = FakeClock()
    bot = make_bot(tmp_path / "packs.sqlite3", clock=clock)
    async with fake_discord.running(bot):
        await bot.store.settings.update(guild.id, organiser_role_id=organisers.id)
        claimed = await fake_discord.slash(ada, channel, "starter", deck=RED_GREEN)
        assert claimed.ephemeral and "40 cards are now yours" in claimed.text
        picture = await pictured(fake_discord, claimed.message, "starter.png")
        assert opened(picture.data).height > 100
        again = await fake_discord.slash(ada, channel, "starter", deck=BLUE_BLACK)
        assert again.ephemeral and again.content.startswith(REFUSAL)
        assert "already claimed" in again.content

        # The daily pack: 15 cards rarest first, one picture, serials on limited copies.
        pack = await fake_discord.slash(ada, channel, "pack open")
        assert pack.ephemeral and "Your daily pack: 15 cards, rarest first" in pack.text
        lines = [line for line in pack.text.splitlines() if line.startswith("`")]
        assert [line[1] for line in lines] == ["R"] + ["U"] * 3 + ["C"] * 11
        assert "#1 of 100" in lines[0]
        picture = await pictured(fake_discord, pack.message, "pack.png")
        assert pack.embeds[0]["image"]["url"].endswith("pack.png")
        assert opened(picture.data).width > 300
        waited = await fake_discord.slash(ada, channel, "pack open")
        assert waited.ephemeral and "next is due in 24 h" in waited.content
        listed = await fake_discord.slash(ada, channel, "pack list")
        assert "No given pack is waiting" in listed.content and "<t:" in listed.content

        # Prize packs: given by the organiser role (or managers), refused for others.
        refused = await fake_discord.slash(bo, channel, "pack give", user=ada, count=3)
        assert refused.ephemeral and "organiser role" in refused.content
        to_bot = await fake_discord.slash(orla, channel, "pack give", user=fake_discord.bot_user)
        assert to_bot.ephemeral and "Bots can't open packs" in to_bot.content
        given = await fake_discord.slash(orla, channel, "pack give", user=ada, count=2)
        assert not given.ephemeral and f"<@{ada.id}>" in given.content
        assert "2 packs" in given.content
        listed = await fake_discord.slash(ada, channel, "pack list")
        assert "**2 packs waiting**" in listed.content
        prize = await fake_discord.slash(ada, channel, "pack open", public=True)
        assert not prize.ephemeral and "A prize pack" in prize.text
        assert "1 more pack waiting" in prize.text
        await fake_discord.slash(ada, channel, "pack open")
        await bot.store.settings.update(guild.id, daily_pack=False)
        none_left = await fake_discord.slash(ada, channel, "pack open")
        assert none_left.ephemeral and "no pack to open" in none_left.content
        assert "organisers give" in none_left.content

        # /card: your copies, the server's, and the run.
        land = await fake_discord.slash(ada, channel, "card", name="Ashpeak")
        assert "You own 8 · 8 in this server · a basic land" in land.text
        rare = lines[0].split("` ", 1)[1].split(" #")[0]
        counted = await fake_discord.slash(bo, channel, "card", name=rare)
        assert "You own 0 · " in counted.text and "limited run: " in counted.text
        assert "of 100 left" in counted.text
        assert await ledger_rows(bot) == 40 + 3 * 15


async def test_collection_pages_and_privacy(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("cards")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "pages.sqlite3", clock=FakeClock())
    async with fake_discord.running(bot):
        empty = await fake_discord.slash(ada, channel, "collection")
        assert empty.ephemeral and "No cards yet" in empty.text and not empty.message.buttons
        await fake_discord.slash(ada, channel, "starter", deck=RED_GREEN)
        first = await fake_discord.slash(ada, channel, "collection")
        assert first.ephemeral and "Page 1 of 2" in first.text and "26 different" in first.text
        assert button_labels(first.message) == ["Next ▶"]
        second = await fake_discord.click(ada, first.message, label="Next ▶")
        assert second.type == 7 and "Page 2 of 2" in first.message.text  # edited in place
        assert button_labels(first.message) == ["◀ Prev"]
        await fake_discord.click(ada, first.message, label="◀ Prev")
        assert "Page 1 of 2" in first.message.text
        past = await fake_discord.slash(ada, channel, "collection", page=3)
        assert past.ephemeral and past.content == (
            "⚠️ There are only 2 pages of this collection; page 3 does not exist.")

        sorted_red = await fake_discord.slash(ada, channel, "collection", colour="red",
                                              sort="count", name="a")
        text = sorted_red.text
        assert "red, names holding 'a', by count" in text and "green" not in text
        assert "Page 1 of 1" in text
        odd = await fake_discord.slash(ada, channel, "collection", name="**<@1>**")
        assert "No card matches" in odd.text and not odd.message.buttons

        # Someone else's collection: shown while the server's collections are public,
        # without what is held by trades; a public page's buttons answer others privately.
        theirs = await fake_discord.slash(bo, channel, "collection", user=ada)
        assert theirs.ephemeral and "Page 1 of 2" in theirs.text
        posted = await fake_discord.slash(ada, channel, "collection", public=True)
        assert not posted.ephemeral
        peeked = await fake_discord.click(bo, posted.message, label="Next ▶")
        assert peeked.ephemeral and "Page 2 of 2" in peeked.text
        assert "Page 1 of 2" in posted.message.text  # Ada's message stays as it was

        # What a trade holds is the owner's to see, not others'.
        await fake_discord.slash(ada, channel, "trade offer", user=bo, give="Kindlewhip")
        own = await fake_discord.slash(ada, channel, "collection", name="kindlewhip")
        assert "1 held by a trade or ante" in own.text
        seen = await fake_discord.slash(bo, channel, "collection", user=ada, name="kindlewhip")
        assert "Kindlewhip" in seen.text and "held" not in seen.text

        await bot.store.settings.update(guild.id, collections_public=False)
        private = await fake_discord.slash(bo, channel, "collection", user=ada)
        assert private.ephemeral and "private" in private.content
        assert private.content.startswith(REFUSAL)
        again = await fake_discord.click(bo, posted.message, label="Next ▶")
        assert again.ephemeral and "private" in again.content
        mine = await fake_discord.slash(ada, channel, "collection")
        assert "Page 1 of 2" in mine.text
        bots = await fake_discord.slash(ada, channel, "collection", user=fake_discord.bot_user)
        assert bots.ephemeral and "Bots own no cards" in bots.content
        # Forged page buttons: not on the message, or another owner on the message.
        forged = await fake_discord.click_custom(bo, posted.message,
                                                 f"cr:cl:{bo.id}:{ada.id}:2:---n-:")
        assert forged.ephemeral and "not one I can use" in forged.content


async def test_deck_commands_picture_and_round_trip(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("decks")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "decks.sqlite3", clock=FakeClock())
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "starter", deck=RED_GREEN)
        made = await fake_discord.slash(ada, channel, "deck create", name="burn",
                                        list="4 Kindlewhip, 17 Ashpeak")
        assert made.ephemeral and "21 cards" in made.text and "at least 40" in made.text
        assert "19 more are needed" in made.text and "short of: 3 Kindlewhip" in made.text
        picture = await pictured(fake_discord, made.message, "deck-burn.png")
        assert picture.data.startswith(b"\x89PNG")
        same = await fake_discord.slash(ada, channel, "deck create", name="BURN",
                                        list="Ashpeak")
        assert same.ephemeral and "already have a deck 'burn'" in same.content
        over = await fake_discord.slash(ada, channel, "deck remove", name="Burn",
                                        cards="5 Kindlewhip")
        assert over.ephemeral and "Deck burn holds 4 Kindlewhip (you asked to take out 5)" \
            in over.content
        added = await fake_discord.slash(ada, channel, "deck add", name="burn",
                                         cards="22 Mossvale")
        assert "43 cards" in added.text and "short of: 3 Kindlewhip" in added.text
        trimmed = await fake_discord.slash(ada, channel, "deck remove", name="burn",
                                           cards="3 Kindlewhip")
        assert "40 cards. Ready to play." in trimmed.text
        completed = await fake_discord.autocomplete(ada, channel, "deck show", option="name",
                                                    value="BU")
        assert [c["value"] for c in completed] == ["burn"]
        entries = await fake_discord.autocomplete(ada, channel, "deck add", option="cards",
                                                  value="2 Kindlewhip, 3 ashp", name="burn")
        assert entries[0]["value"] == "2 Kindlewhip, 3 Ashpeak"
        shown = await fake_discord.slash(ada, channel, "deck show", name="burn")
        assert opened((await pictured(fake_discord, shown.message,
                                      "deck-burn.png")).data).width > 300
        listed = await fake_discord.slash(ada, channel, "deck list")
        assert "**burn**: 40 cards. Ready to play." in listed.content
        assert f"**{RED_GREEN}**: 40 cards" in listed.content

        exported = await fake_discord.slash(ada, channel, "deck export", name="burn")
        assert "```" in exported.content and "1 Kindlewhip" in exported.content
        as_file = await fake_discord.slash(ada, channel, "deck export", name=RED_GREEN,
                                           file=True)
        listing = as_file.message.attachment(f"{RED_GREEN}.txt").data
        imported = await (await fake_discord.slash(ada, channel, "deck import", name="copy",
                                                   file=("copy.txt", listing))).final()
        assert "Imported" in imported.text and "40 cards. Ready to play." in imported.text
        back = await bot.collections.export_deck(guild.id, ada.id, "copy")
        assert back == listing.decode()
        saved = await bot.store.collections.deck(guild.id, ada.id, "copy")
        assert Counter(saved.cards) == Counter(starter(RED_GREEN))
        pasted = await fake_discord.slash(ada, channel, "deck import", name="copy",
                                          list="4 Kindlewhip", replace=True)
        assert "4 cards" in pasted.text

        for options, words in (
                ({"name": "x"}, "either pasted"),
                ({"name": "x", "list": "Ashpeak", "file": ("a.txt", b"Ashpeak")}, "either"),
                ({"name": "x", "file": ("a.png", b"\x89PNG....")}, "plain text"),
                ({"name": "x", "file": ("a.txt", b"\xff\xfe\x00")}, "not plain text"),
                ({"name": "x", "file": ("a.txt", b"4 Kindlewhip\n" * 3000)}, "bytes"),
                ({"name": "**x**", "list": "Ashpeak"}, "deck name"),
                ({"name": "x", "list": "0 Ashpeak"}, "1 to 99"),
                ({"name": "x", "list": "999 Ashpeak"}, "can't read"),
                ({"name": "x", "list": "4 Kindlewip"}, "Kindlewhip"),
                ({"name": "x", "list": "@everyone"}, "can't read")):
            # A file is read after a private deferral: a refusal then completes it.
            bad = await (await fake_discord.slash(ada, channel, "deck import",
                                                  **options)).final()
            assert bad.ephemeral and bad.content.startswith(REFUSAL), options
            assert words in bad.content, (options, bad.content)
        assert await bot.store.collections.deck(guild.id, ada.id, "x") is None

        missing = await fake_discord.slash(ada, channel, "deck show", name="nope")
        assert missing.ephemeral and "no deck 'nope'" in missing.content
        deleted = await fake_discord.slash(ada, channel, "deck delete", name="burn")
        assert "deleted" in deleted.content
        assert await bot.store.collections.deck(guild.id, ada.id, "burn") is None


async def two_starters(fake_discord, channel, ada, bo) -> None:
    await fake_discord.slash(ada, channel, "starter", deck=RED_GREEN)
    await fake_discord.slash(bo, channel, "starter", deck=BLUE_BLACK)


async def test_a_whole_trade_with_its_confirm_window(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("trades")
    ada, bo, cy = (fake_discord.add_user(n) for n in ("Ada", "Bo", "Cy"))
    clock = FakeClock()
    bot = make_bot(tmp_path / "trade.sqlite3", clock=clock)
    async with fake_discord.running(bot):
        await two_starters(fake_discord, channel, ada, bo)
        offered = await fake_discord.slash(ada, channel, "trade offer", user=bo,
                                           give="Kindlewhip, 2 Ashpeak",
                                           get="Brinewing Skimmer")
        offer = offered.message
        assert not offered.ephemeral and f"<@{bo.id}>" in offer.content
        assert "2× Ashpeak, Kindlewhip" in offer.text and "Brinewing Skimmer" in offer.text
        # Its picture is added just after the offer (bot/discord_parts/answer_first.py).
        await fake_discord.wait_for(lambda: offer.attachments, description="its picture")
        assert opened(offer.attachments[0].data).width > 300
        assert button_labels(offer) == ["Accept", "Decline", "Cancel"]
        assert (await bot.store.collections.counts(guild.id, ada.id))["Kindlewhip"].free == 0

        stranger = await fake_discord.click(cy, offer, label="Accept")
        assert stranger.ephemeral and "Only the person the offer was made to" in stranger.content
        own = await fake_discord.click(ada, offer, label="Accept")
        assert own.ephemeral and own.content.startswith(REFUSAL)
        # A double click: both clicks made before the message changes.
        accepted, double = await asyncio.gather(fake_discord.click(bo, offer, label="Accept"),
                                                fake_discord.click(bo, offer, label="Accept"))
        assert accepted.type == double.type == 7 and "Accepted" in offer.text
        assert f"<t:{int(clock.now()) + 5}:R>" in offer.text
        assert button_labels(offer) == ["Confirm", "Cancel"]
        twice = await fake_discord.click(bo, offer, label="Confirm")  # before the window
        assert twice.ephemeral and "opens in 5 s" in twice.content

        # A second click and a replayed interaction on Accept change nothing.
        trade = (await bot.collections.open_trades(guild.id, bo.id))[0]
        stored = await bot.store.collections.trade(trade.id)
        again = await fake_discord.redeliver(accepted)
        await fake_discord.wait_until_idle(quiet=0.2)
        assert again.callback_attempts == 1
        assert await bot.store.collections.trade(trade.id) == stored

        clock.advance(5)
        mine = await fake_discord.click(ada, offer, label="Confirm")
        assert mine.type == 7 and "✅ confirmed" in offer.text
        repeat = await fake_discord.click(ada, offer, label="Confirm")
        assert repeat.type == 7 and (await bot.store.collections.trade(trade.id)).status \
            == "accepted"
        assert await ledger_rows(bot, "trade") == 0
        done, double = await asyncio.gather(fake_discord.click(bo, offer, label="Confirm"),
                                            fake_discord.click(bo, offer, label="Confirm"))
        assert done.type == double.type == 7 and "Done: the cards changed hands" in offer.text
        assert f"<@{ada.id}> got: Brinewing Skimmer" in offer.text
        assert offer.buttons == []
        replayed = await fake_discord.redeliver(done)
        await fake_discord.wait_until_idle(quiet=0.2)
        assert replayed.callback_attempts == 1 and await ledger_rows(bot, "trade") == 4
        ada_now = await bot.store.collections.counts(guild.id, ada.id)
        assert "Kindlewhip" not in ada_now and ada_now["Brinewing Skimmer"].owned == 1
        assert (await bot.store.collections.counts(guild.id, bo.id))["Ashpeak"].owned == 2
        listed = await fake_discord.slash(ada, channel, "trade list")
        assert "no open trades" in listed.content

        # Decline and cancel unlock; a forged button is refused; nothing moved.
        declined = await fake_discord.slash(ada, channel, "trade offer", user=bo, give="Ashpeak")
        await recorded(bot, declined)
        listed = await fake_discord.slash(bo, channel, "trade list")
        assert f"/{declined.message.id})" in listed.content
        await fake_discord.click(bo, declined.message, label="Decline")
        assert "Declined by" in declined.message.text and declined.message.buttons == []
        cancelled = await fake_discord.slash(ada, channel, "trade offer", user=bo,
                                             give="6 Ashpeak")
        nosy = await fake_discord.click(cy, cancelled.message, label="Cancel")
        assert nosy.ephemeral and "Only the two people trading" in nosy.content
        await fake_discord.click(bo, cancelled.message, label="Cancel")
        assert "Cancelled" in cancelled.message.text
        free = await bot.store.collections.counts(guild.id, ada.id)
        assert free["Ashpeak"].free == free["Ashpeak"].owned == 6
        for custom_id in (f"cr:tr:{trade.id + 99}:accept", f"cr:tr:{trade.id}:steal",
                          "cr:tr:" + "9" * 30 + ":accept"):
            forged = await fake_discord.click_custom(bo, cancelled.message, custom_id)
            assert forged.ephemeral and "not one I can use" in forged.content
        assert await ledger_rows(bot, "trade") == 4

        # Refused offers change nothing.
        for options, words in (({"user": ada, "give": "Ashpeak"}, "yourself"),
                               ({"user": fake_discord.bot_user, "give": "Ashpeak"}, "bot"),
                               ({"user": bo}, "Name the cards"),
                               ({"user": bo, "give": "9 Kindlewhip"}, "short of"),
                               ({"user": bo, "give": "Ashpeak, <@&1>"}, "can't read"),
                               ({"user": bo, "give": "101 Ashpeak"}, "can't read")):
            bad = await fake_discord.slash(ada, channel, "trade offer", **options)
            assert bad.ephemeral and words in bad.content, (options, bad.content)
        assert len(await bot.collections.open_trades(guild.id, ada.id)) == 0
        report = await bot.collections.audit_report(guild.id)
        assert report.problems == ()


async def test_a_restart_between_offer_and_confirm_and_the_expiry_sweep(fake_discord,
                                                                       tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("trades")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    clock = FakeClock()
    path = tmp_path / "restart.sqlite3"
    async with fake_discord.running(make_bot(path, clock=clock)):
        await two_starters(fake_discord, channel, ada, bo)
        kept = await fake_discord.slash(ada, channel, "trade offer", user=bo,
                                        give="Kindlewhip", get="2 Murkfen")
        lapsing = await fake_discord.slash(bo, channel, "trade offer", user=ada,
                                           give="Brinewing Skimmer")
        await fake_discord.click(bo, kept.message, label="Accept")
    clock.advance(6)
    bot = make_bot(path, clock=clock)
    async with fake_discord.running(bot):  # a new bot on the same file
        await fake_discord.click(ada, kept.message, label="Confirm")
        await fake_discord.click(bo, kept.message, label="Confirm")
        assert "Done: the cards changed hands" in kept.message.text
        assert (await bot.store.collections.counts(guild.id, ada.id))["Murkfen"].owned == 2

        # Expiry: the sweep closes the lapsed offer and edits its message.
        clock.advance(15 * 60)
        assert await bot.trade_desk.sweep() == 1
        assert "Expired" in lapsing.message.text and lapsing.message.buttons == []
        # A click on an offer that lapsed since the last sweep is refused, and its
        # message is brought up to date at once.
        fourth = await fake_discord.slash(ada, channel, "trade offer", user=bo, give="Ashpeak")
        await recorded(bot, fourth)
        clock.advance(15 * 60)
        late = await fake_discord.click(bo, fourth.message, label="Accept")
        assert late.ephemeral and "expired" in late.content
        await fake_discord.wait_for(lambda: "Expired" in fourth.message.text)
        assert fourth.message.buttons == []
        assert (await bot.store.collections.counts(guild.id, bo.id))[
            "Brinewing Skimmer"].free == 1
        assert await bot.trade_desk.sweep() == 0  # nothing behind any more
        assert (await bot.collections.audit_report(guild.id)).problems == ()

        # A message left behind while the bot was down is brought up to date.
        third = await fake_discord.slash(ada, channel, "trade offer", user=bo, give="Ashpeak")
        trade = (await bot.collections.open_trades(guild.id, ada.id))[0]
        await bot.collections.cancel(trade.id, bo.id)  # as if the bot stopped before editing
        assert "Waiting for" in third.message.text
        assert await bot.trade_desk.sweep() == 1
        assert "Cancelled" in third.message.text


async def test_audit_for_moderators_only(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("books")
    boss = guild.add_user("Boss", roles=(guild.add_role("Managers", MANAGE_GUILD),))
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "audit.sqlite3", clock=FakeClock())
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "starter", deck=RED_GREEN)
        books = await fake_discord.slash(boss, channel, "audit")
        assert books.ephemeral
        assert "The books balance: 40 copies, 40 ledger rows." in books.content
        with pytest.raises(CommandNotAvailable):
            await fake_discord.slash(ada, channel, "audit")
        # A server may open the command to everyone; Croupier still checks.
        fake_discord.find_command("audit").raw["default_member_permissions"] = None
        refused = await fake_discord.slash(ada, channel, "audit")
        assert refused.ephemeral and "manage the server" in refused.content
        # A planted fault (bypassing the bank, in this test only) is reported.
        await bot.store.db.execute("UPDATE copies SET owner_id = ? WHERE id = 1", (boss.id,))
        found = await fake_discord.slash(boss, channel, "audit")
        assert "found 1 problem" in found.content and "the ledger says" in found.content


async def test_card_by_its_portuguese_name_in_either_language(fake_discord, tmp_path):
    """``/card`` completes and finds a card by its name in Portuguese or English; each
    reader sees the card in their own language."""
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("cards")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "card.sqlite3", clock=FakeClock())
    async with fake_discord.running(bot):
        offered = await fake_discord.autocomplete(ada, channel, "card", option="name",
                                                  value="chicote", locale="pt-BR")
        assert {"name": "Chicote de Brasa", "value": "Kindlewhip"} in offered
        in_english = await fake_discord.autocomplete(ada, channel, "card", option="name",
                                                     value="chicote")
        assert {"name": "Kindlewhip", "value": "Kindlewhip"} in in_english
        shown = await fake_discord.slash(ada, channel, "card", name="chicote de brasa",
                                         locale="pt-BR")
        embed = shown.embeds[0]
        assert shown.ephemeral and embed["title"] == "Chicote de Brasa"
        assert "Mágica instantânea · comum" in embed["description"]
        assert "Cause 2 de dano a qualquer alvo." in embed["description"]
        assert embed["fields"][0]["name"] == "Cópias" and "Você tem 0" in shown.text
        english = await fake_discord.slash(ada, channel, "card", name="Chicote de Brasa")
        assert english.embeds[0]["title"] == "Kindlewhip"
        assert "Deal 2 damage to any target." in english.text and "You own 0" in english.text
        unknown = await fake_discord.slash(ada, channel, "card", name="Chicote de Brasx",
                                           locale="pt-BR")
        assert unknown.ephemeral and "Você quis dizer Chicote de Brasa" in unknown.content


async def test_collections_and_a_trade_in_the_pseudo_locale_show_no_english(fake_discord,
                                                                             tmp_path):
    """Every word of collections comes from a catalog: starters, packs, a collection
    page, /card, decks and a whole trade (offer, accept, confirm) in the pseudo-locale
    leave no English anywhere the fake Discord was sent; the pictures too fit."""
    from tests.pseudo import (
        assert_all_pseudo,
        pictures_checked,
        pseudo_discord,
        server_speaks_pseudo,
    )

    guild = fake_discord.add_guild("Qq")
    channel = guild.add_text_channel("qq")
    jo, bo = fake_discord.add_user("Jo"), fake_discord.add_user("Bo")
    clock = FakeClock()
    bot = make_bot(tmp_path / "qps.sqlite3", clock=clock)
    with pseudo_discord(fake_discord), pictures_checked():
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            await two_starters(fake_discord, channel, jo, bo)
            pack = await fake_discord.slash(jo, channel, "pack open", public=True)
            await pictured(fake_discord, pack.message, "pack.png")
            again = await fake_discord.slash(jo, channel, "pack open")
            assert again.ephemeral and REFUSAL in again.content
            await fake_discord.slash(jo, channel, "pack list")
            page = await fake_discord.slash(jo, channel, "collection", rarity="common")
            await fake_discord.click(jo, page.message, page.message.buttons[0].custom_id)
            await fake_discord.slash(jo, channel, "card", name="Kindlewhip")
            await fake_discord.autocomplete(jo, channel, "card", option="name", value="ash")
            shown = await fake_discord.slash(jo, channel, "deck show", name=RED_GREEN)
            await pictured(fake_discord, shown.message, f"deck-{RED_GREEN}.png")
            await fake_discord.slash(jo, channel, "deck list")
            await fake_discord.slash(jo, channel, "deck create", name="Qq", list="4 Kindlewhip")
            offered = await fake_discord.slash(jo, channel, "trade offer", user=bo,
                                               give="Kindlewhip", get="Brinewing Skimmer")
            offer = offered.message
            await fake_discord.wait_for(lambda: offer.attachments, description="its picture")
            await fake_discord.click(bo, offer, offer.buttons[0].custom_id)  # accept
            early = await fake_discord.click(bo, offer, offer.buttons[0].custom_id)  # confirm
            assert early.ephemeral and REFUSAL in early.content
            clock.advance(5)
            await fake_discord.click(jo, offer, offer.buttons[0].custom_id)
            await fake_discord.click(bo, offer, offer.buttons[0].custom_id)
            assert offer.buttons == []
            await fake_discord.slash(jo, channel, "trade list")
    assert_all_pseudo(fake_discord, allowed=["Jo", "Bo", RED_GREEN, BLUE_BLACK])
