"""End to end: Eclipse through the real discord.py client and the fake Discord API.

Three people play with their hands in DMs (one of them with closed DMs, using
"My hand" and /choose), secret choices are made privately and revealed together,
and the test reads every version of every message to make sure no card of a
hand shows anywhere its owner's eyes alone should see it. Then one person
plays a whole game against two computer players.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable

import pytest

from rules.eclipse import choose
from rules.eclipse.state import EclipseState
from tests.e2e import deal_the_same, make_bot, select_ids, select_values, table_message
from tests.fakediscord.model import FakeMessage
from tests.pseudo import assert_all_pseudo, pseudo_discord, server_speaks_pseudo


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the same cards every run, so the test walks the same path."""
    deal_the_same(monkeypatch, 20261121)


def versions(message: FakeMessage) -> Iterable[tuple[tuple[int, int], str]]:
    """Every version of a message as text (content, embeds and menus), keyed by version."""
    def text(content: str, embeds: object, components: object) -> str:
        return (f"{content} {json.dumps(embeds, ensure_ascii=False)} "
                f"{json.dumps(components, ensure_ascii=False)}")

    for n, old in enumerate(message.history):
        yield (message.id, n), text(old.content, old.embeds, old.components)
    yield (message.id, len(message.history)), text(message.content, message.embeds,
                                                   message.components)


def shows(text: str, card) -> bool:
    return card.label in text or re.search(rf"\b{card.code}\b", text) is not None


class SecrecyWatch:
    """Reads each new message version once and checks who may see which hand."""

    def __init__(self, fake, channel, users: dict[int, object]) -> None:
        self.fake, self.channel, self.users = fake, channel, users
        self.seen: set[tuple[int, int]] = set()
        self.read = 0

    def check(self, state: EclipseState) -> None:
        hands = {seat: [state.cards[c] for c in state.hands[seat] if not state.cards[c].follower]
                 for seat in range(state.seats)}
        places: list[tuple[FakeMessage, set[int]]] = []
        for message in self.channel.messages:
            # A channel message is for everyone; an ephemeral one for its owner alone.
            owners = {seat for seat, user in self.users.items()
                      if message.ephemeral and message.visible_to(user)}
            places.append((message, owners))
        for seat, user in self.users.items():
            places += [(message, {seat}) for message in self.fake.dm_messages(user)]
        for message, audience in places:
            for key, text in versions(message):
                if key in self.seen:
                    continue
                self.seen.add(key)
                self.read += 1
                for seat, cards in hands.items():
                    if seat in audience:
                        continue
                    leaked = [card.code for card in cards if shows(text, card)]
                    assert not leaked, (f"seat {seat}'s hand {leaked} shown to {audience or 'all'}"
                                        f":\n{text[:600]}")


def latest_menu(fake, user, value: str) -> tuple[FakeMessage, str]:
    """The user's newest DM with a menu offering ``value``."""
    for message in reversed(fake.dm_messages(user)):
        for custom_id in select_ids(message):
            if value in select_values(message, custom_id):
                return message, custom_id
    raise LookupError(f"no DM menu with {value!r} for {user.name}")


async def test_three_players_keep_their_hands_secret(fake_discord, tmp_path, fixed_seed):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("eclipse")
    ada, bo, cy = (fake_discord.add_user(n) for n in ("Ada", "Bo", "Cy"))
    fake_discord.set_dms_closed(cy)
    bot = make_bot(tmp_path / "eclipse.sqlite3")
    async with fake_discord.running(bot):
        opened = await fake_discord.slash(ada, channel, "play eclipse", seats=3)
        assert "Eclipse opened" in opened.content
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(cy, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        state = match.state
        users = {0: ada, 1: bo, 2: cy}
        watch = SecrecyWatch(fake_discord, channel, users)

        # Hands arrive by DM, as a picture and as text; Cy's DMs are closed.
        for seat, user in ((0, ada), (1, bo)):
            dm = await fake_discord.wait_for_message(user, contains="Your hand")
            assert dm.attachments and dm.attachments[0].data.startswith(b"\x89PNG")
            for card_id in state.hands[seat]:
                card = state.cards[card_id]
                assert card.follower or card.code in dm.text
        notice = await fake_discord.wait_for_message(channel, contains="can't send Cy")
        assert "My hand" in notice.text
        table = table_message(channel)
        assert table.attachments and table.attachments[0].data.startswith(b"\x89PNG")
        assert "attacks" in table.text and "Safe set" in table.text
        watch.check(match.state)

        # Cy sees his hand with "My hand": an ephemeral view only he can read.
        mine = await fake_discord.click(cy, table, label="My hand")
        assert mine.ephemeral and "Your hand" in mine.message.text
        watch.check(match.state)

        rng = random.Random(5)
        reveals = refused = decisions = 0
        while not match.finished and decisions < 45:
            state = match.state
            pending = [d for d in state.pending() if not match.seats[d.seat].computer_plays]
            if not pending:
                await bot.service.settle()
                continue
            decision = pending[0]
            seat, user = decision.seat, users[decision.seat]
            value = choose(state.copy(), seat, rng)
            secret_pair = decision.simultaneous and len(state.pending()) == 2
            if user is cy:
                answer = await fake_discord.slash(cy, channel, "choose", choice=value)
                assert answer.ephemeral and "You chose" in answer.content
            else:
                dm, menu = latest_menu(fake_discord, user, value)
                picked = await fake_discord.select(user, dm, menu, [value])
                assert picked.type == 7 and "You chose" in picked.message.text
            decisions += 1
            await bot.service.settle()
            if secret_pair:
                # One secret choice is in: nothing is revealed, the table only says who chose.
                assert match.state.has_chosen(seat) and match.state.step == state.step
                assert "Chosen (secret)" in table_message(channel).text
                if not refused:
                    again = await fake_discord.slash(user, channel, "choose", choice=value)
                    assert again.ephemeral and "already made your choice" in again.content
                    refused += 1
            elif decision.kind in ("card", "number") and match.state.step != state.step:
                # Both are in: both cards are shown together on the table.
                reveal = match.state.last_reveal
                if reveal is not None and reveal.attacker_card and decision.kind == "card":
                    text = table_message(channel).text
                    assert reveal.attacker_card.label in text
                    assert reveal.defender_card.label in text
                    reveals += 1
            watch.check(match.state)

        assert decisions >= 30 and reveals >= 3 and refused == 1 and watch.read > 100
        # The DMs follow the hand: some DM was edited after it was sent.
        assert any(m.history for u in (ada, bo) for m in fake_discord.dm_messages(u))
        assert not fake_discord.dm_messages(cy)


async def test_one_person_plays_a_whole_game_against_two_computer_players(
        fake_discord, tmp_path, fixed_seed):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("eclipse-solo")
    ada = fake_discord.add_user("Ada")
    bot = make_bot(tmp_path / "solo.sqlite3")
    async with fake_discord.running(bot):
        started = await fake_discord.slash(ada, channel, "play eclipse", vs_bot=True,
                                           seats=3)
        assert "Eclipse started against the computer" in started.content
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        watch = SecrecyWatch(fake_discord, channel, {0: ada})
        rng = random.Random(7)
        decisions = 0
        while not match.finished:
            decision = match.state.decision_for(0)
            if decision is None:
                await bot.service.settle()
                continue
            value = choose(match.state.copy(), 0, rng)
            dm, menu = latest_menu(fake_discord, ada, value)
            await fake_discord.select(ada, dm, menu, [value])
            decisions += 1
            await bot.service.settle()
            watch.check(match.state)
            assert decisions < 400
        result = await fake_discord.wait_for_message(channel, contains="is over")
        outcome = match.state.outcome()
        assert outcome is not None and match.names[outcome.winners[0]] in result.text
        assert "game over" in table_message(channel).embeds[0]["title"]
        stored = await bot.store.matches.result(match.id)
        assert stored is not None


async def test_a_game_in_the_pseudo_locale_shows_no_english(fake_discord, tmp_path, fixed_seed):
    """Every word Eclipse shows comes from a catalog: a short game against the computer
    (two seats, a counterattack of one card, the shortest hand cap) with /rules, /hand,
    a refusal, the suggestions of /choose and a typed choice, in the pseudo-locale,
    leaves no English anywhere the fake Discord was sent (the cards' notation and
    symbols are no words)."""
    guild = fake_discord.add_guild("Qq")
    channel = guild.add_text_channel("qq")
    jo = fake_discord.add_user("Jo")
    bot = make_bot(tmp_path / "qps.sqlite3")
    with pseudo_discord(fake_discord):
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            rules = await fake_discord.slash(jo, channel, "rules", game="eclipse")
            assert rules.ephemeral and "⟦" in rules.embeds[0]["description"]
            await fake_discord.slash(jo, channel, "play eclipse", vs_bot=True, seats=2,
                                     hand_cap=10, counterattack=1)
            await bot.service.settle()
            match = bot.service.match_in(channel.id)
            refused = await fake_discord.slash(jo, channel, "choose", choice="Z9")
            assert refused.ephemeral and "Z9" in refused.content and "⟦" in refused.content
            await fake_discord.slash(jo, channel, "hand")
            rng = random.Random(3)
            typed = False
            while not match.finished:
                decision = match.state.decision_for(0)
                if decision is None:
                    await bot.service.settle()
                    continue
                value = choose(match.state.copy(), 0, rng)
                if not typed and decision.kind != "card":  # options said in words
                    typed = True
                    offered = await fake_discord.autocomplete(jo, channel, "choose",
                                                              option="choice", value="")
                    assert value in [choice["value"] for choice in offered]
                    await fake_discord.slash(jo, channel, "choose", choice=value)
                else:
                    dm, menu = latest_menu(fake_discord, jo, value)
                    await fake_discord.select(jo, dm, menu, [value])
                await bot.service.settle()
            await bot.service.settle()
    assert match.finished and match.state.hands_played >= 1
    # Choices are notation (`new+1`, `skip`): the acknowledgement repeats them as typed.
    notation = ["**new", "**skip**", "**counter**", "**keep**"]
    assert_all_pseudo(fake_discord, allowed=[*notation, "Jo", "Croupier Bot", "Eclipse", "**deck**",
                                             "**counterattack**", "**hand_cap**"])
