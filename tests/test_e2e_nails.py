"""End to end: Hammer & Nails through the real discord.py client and the fake Discord.

Two people play a whole game: Ada places through her DM (pick a tile, then one of
its places from the menus that come back), Bo types `/nails place`; every other
decision comes as a menu for the right player only. The test reads every version
of every message and fails if a tile of a hand shows anywhere but its owner's DM
(and the challenge reveal, which only the declarer sees).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from rules.nails import choose
from rules.nails.stack import Placement
from tests.e2e import deal_the_same, make_bot, select_ids, select_values, table_message
from tests.fakediscord.model.components import walk_components
from tests.pseudo import assert_all_pseudo, pseudo_discord, server_speaks_pseudo

TILE = re.compile(r"\btiles? (\d+)\b|\b(\d+)@|\bTile (\d+)\b")


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    deal_the_same(monkeypatch, 424242)


def next_page(message) -> str:
    """The custom id of a page of menus' button to the next page (whatever its label)."""
    pages = [str(c.raw.get("custom_id")) for c in walk_components(message.components)
             if str(c.raw.get("custom_id", "")).startswith("cr:page:")]
    return max(pages, key=lambda custom_id: int(custom_id.rsplit(":", 1)[1]))


def tile_numbers(text: str) -> set[int]:
    return {int(next(g for g in m.groups() if g)) for m in TILE.finditer(text)}


def texts(message) -> list[tuple[tuple[int, int], str]]:
    def text(content, embeds, components) -> str:
        return (f"{content} {json.dumps(embeds, ensure_ascii=False)} "
                f"{json.dumps(components, ensure_ascii=False)}")

    found = [((message.id, n), text(o.content, o.embeds, o.components))
             for n, o in enumerate(message.history)]
    found.append(((message.id, len(message.history)),
                  text(message.content, message.embeds, message.components)))
    return found


class Watch:
    """Each new message version once: no hand tile outside its owner's eyes."""

    def __init__(self, fake, channel, users) -> None:
        self.fake, self.channel, self.users = fake, channel, users
        self.seen: set[tuple[int, int]] = set()
        self.revealed: dict[int, set[int]] = {seat: set() for seat in users}

    def check(self, state) -> None:
        for seat, tiles in state.revealed.items():
            self.revealed[seat] |= set(tiles)
        hands = {seat: set(state.hands[seat]) for seat in self.users}
        places = [(m, {s for s, u in self.users.items() if m.ephemeral and m.visible_to(u)})
                  for m in self.channel.messages]
        for seat, user in self.users.items():
            places += [(m, {seat}) for m in self.fake.dm_messages(user)]
        for message, audience in places:
            for key, text in texts(message):
                if key in self.seen:
                    continue
                self.seen.add(key)
                shown = tile_numbers(text)
                for seat, hand in hands.items():
                    allowed = set().union(*(self.revealed[s] for s in audience)) if audience \
                        else set()
                    leaked = (hand & shown) - allowed if seat not in audience else set()
                    assert not leaked, f"seat {seat}'s tiles {leaked} shown to " \
                                       f"{audience or 'everyone'}:\n{text[:500]}"


async def test_two_people_play_hammer_and_nails_to_the_end(fake_discord, tmp_path, fixed_seed):
    guild = fake_discord.add_guild("Workshop")
    channel = guild.add_text_channel("nails")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "nails.sqlite3")
    async with fake_discord.running(bot):
        opened = await fake_discord.slash(ada, channel, "play nails", objective="fewest")
        assert "Hammer & Nails opened" in opened.content
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        users = {0: ada, 1: bo}
        watch = Watch(fake_discord, channel, users)

        table = table_message(channel)
        assert table.attachments and table.attachments[0].data.startswith(b"\x89PNG")
        for seat, user in users.items():
            dm = await fake_discord.wait_for_message(user, contains="Your hand")
            assert dm.attachments and dm.attachments[0].data.startswith(b"\x89PNG")
            assert all(f"tile {n}" in dm.text for n in match.state.hands[seat])
        watch.check(match.state)

        rng = random.Random(3)
        picked_by_dm = typed = menus = 0
        while not match.finished:
            pending = match.state.pending()
            if not pending:
                await bot.service.settle()
                continue
            decision = pending[0]
            seat, user = decision.seat, users[decision.seat]
            value = choose(match.state.copy(), seat, rng)
            if "@" in value and user is bo:
                placement = Placement.parse(value)
                at = value.split("@", 1)[1].split("/")[0]
                reply = await fake_discord.slash(bo, channel, "nails place", tile=placement.tile,
                                                 at=at, rotate=placement.rotation)
                assert reply.ephemeral and "You chose" in reply.content, reply.content
                typed += 1
            else:
                dm = next(m for m in reversed(fake_discord.dm_messages(user)) if m.components)
                if "@" in value:
                    # Pick the tile, then find the place in the menus that come back.
                    tile = value.split("@", 1)[0]
                    picker = next(c for c in select_ids(dm) if c.startswith("cr:keys:"))
                    listed = await fake_discord.select(user, dm, picker, [tile])
                    page = listed.message
                    while not any(value in select_values(page, c) for c in select_ids(page)):
                        more = await fake_discord.click(user, page, label="More ▶")
                        page = more.message
                    menu = next(c for c in select_ids(page) if value in select_values(page, c))
                    await fake_discord.select(user, page, menu, [value])
                    picked_by_dm += 1
                else:
                    menu = next(c for c in select_ids(dm) if value in select_values(dm, c))
                    await fake_discord.select(user, dm, menu, [value])
                    menus += 1
            await bot.service.settle()
            watch.check(match.state)
            assert picked_by_dm + typed + menus < 400

        assert picked_by_dm >= 5 and typed >= 5
        result = await fake_discord.wait_for_message(channel, contains="is over")
        outcome = match.state.outcome()
        assert outcome is not None and match.names[outcome.winners[0]] in result.text
        assert await bot.store.matches.result(match.id) is not None


async def test_a_game_in_the_pseudo_locale_shows_no_english(fake_discord, tmp_path, fixed_seed):
    """Every word Hammer & Nails shows comes from a catalog: a whole game against the
    computer with /rules, /nails places, a refused placement, placements picked in the
    DM and typed, in the pseudo-locale, leaves no English anywhere the fake Discord was
    sent (placements and cells are notation, no words)."""
    guild = fake_discord.add_guild("Qq")
    channel = guild.add_text_channel("qq")
    jo = fake_discord.add_user("Jo")
    bot = make_bot(tmp_path / "qps.sqlite3")
    with pseudo_discord(fake_discord):
        async with fake_discord.running(bot):
            await server_speaks_pseudo(bot, guild.id)
            rules = await fake_discord.slash(jo, channel, "rules", game="nails")
            assert rules.ephemeral and "⟦" in rules.embeds[0]["description"]
            await fake_discord.slash(jo, channel, "play nails", vs_bot=True)
            await bot.service.settle()
            match = bot.service.match_in(channel.id)
            rng = random.Random(3)
            refused = places = False
            steps = 0
            while not match.finished:
                decision = match.state.decision_for(0)
                if decision is None:
                    await bot.service.settle()
                    continue
                value = choose(match.state.copy(), 0, rng)
                if "@" in value and not refused:
                    refused = True
                    tile = Placement.parse(value).tile
                    reply = await fake_discord.slash(jo, channel, "nails place", tile=tile,
                                                     at="Z99")
                    assert reply.ephemeral and "⟦" in reply.content, reply.content
                    if not places:
                        places = True
                        listed = await fake_discord.slash(jo, channel, "nails places",
                                                          tile=tile)
                        assert "⟦" in listed.content and value in listed.content
                if "@" in value and steps % 2:
                    placement = Placement.parse(value)
                    at = value.split("@", 1)[1].split("/")[0]
                    await fake_discord.slash(jo, channel, "nails place", tile=placement.tile,
                                             at=at, rotate=placement.rotation)
                elif "@" in value:
                    dm = next(m for m in reversed(fake_discord.dm_messages(jo)) if m.components)
                    picker = next(c for c in select_ids(dm) if c.startswith("cr:keys:"))
                    listed = await fake_discord.select(jo, dm, picker, [value.split("@")[0]])
                    page = listed.message
                    while not any(value in select_values(page, c) for c in select_ids(page)):
                        page = (await fake_discord.click(jo, page, next_page(page))).message
                    menu = next(c for c in select_ids(page) if value in select_values(page, c))
                    await fake_discord.select(jo, page, menu, [value])
                else:
                    dm = next(m for m in reversed(fake_discord.dm_messages(jo)) if m.components)
                    menu = next(c for c in select_ids(dm) if value in select_values(dm, c))
                    await fake_discord.select(jo, dm, menu, [value])
                steps += 1
                await bot.service.settle()
                assert steps < 200
            await bot.service.settle()
    assert match.finished and refused and places
    # Choices are notation (`17@C4/90`, `yes`, `keep`): the acknowledgement repeats one
    # as chosen; /rules names the options as /play types them.
    choices = [f"**{word}**" for word in ("yes", "no", "keep", "cannot", "challenge",
                                          "accept")]
    options = [f"**{name}**" for name in ("deck", "objective", "teams", "final_round")]
    assert_all_pseudo(fake_discord, allowed=["Jo", "Croupier Bot", "Hammer & Nails", "Z99",
                                             *choices, *options])
