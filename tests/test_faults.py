"""End to end with Discord misbehaving (the fake's injected faults): a temporary
failure is shown again later and never taken for closed DMs; a table edit that
fails does not stop the DMs of that move, nor the final table and result."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

import tests.simgame  # noqa: F401  (registers the secret-choice test game)
from bot.matches import delivery
from tests.e2e import make_bot, select_ids, table_message
from tests.fakediscord import Fault

DM_MESSAGES = r"/channels/\d+/messages"


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Showing again after a failure waits a moment, not seconds."""
    monkeypatch.setattr(delivery, "SHOW_AGAIN_AFTER", (0.05, 0.1, 0.2), raising=False)


@pytest.fixture
def people(fake_discord):
    """A channel and the two people who play Secret Numbers in it."""
    channel = fake_discord.add_guild("Casino").add_text_channel("secret-table")
    return channel, fake_discord.add_user("Ada"), fake_discord.add_user("Bo")


@asynccontextmanager
async def secret_game(fake_discord, tmp_path, people):
    """The bot running, and a game of Secret Numbers begun by Ada and Bo."""
    channel, ada, bo = people
    bot = make_bot(tmp_path / "faults.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play secret")
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        yield bot, bot.service.match_in(channel.id)


def failing_table_edits(fake_discord, channel, times: int | None) -> Fault:
    """The next ``times`` edits of messages in ``channel`` (its table) answered with
    503, which discord.py does not ask again itself (``None``: every edit)."""
    return fake_discord.faults.add(Fault(
        "status", status=503, method="PATCH", route=rf"/channels/{channel.id}/messages/",
        times=times))


def results_posted(channel) -> list:
    """The channel's result posts."""
    return [m for m in channel.messages if "is over" in m.text]


async def pick(fake_discord, bot, user, card: str) -> None:
    """``user`` picks ``card`` from the menu of their latest DM."""
    dm = fake_discord.dm_messages(user)[-1]
    assert select_ids(dm), [m.text for m in fake_discord.dm_messages(user)]
    await fake_discord.select(user, dm, select_ids(dm)[0], [card])
    await bot.service.settle()


async def test_a_dm_that_fails_for_now_is_sent_again_and_not_taken_for_closed_dms(
        fake_discord, tmp_path, people):
    channel, ada, bo = people
    # Bo's first DM meets a 503 (discord.py does not retry one).
    failed = fake_discord.faults.add(Fault("status", status=503, method="POST",
                                           route=DM_MESSAGES, dm=True, times=1))
    async with secret_game(fake_discord, tmp_path, people) as (bot, _match):
        assert failed.hits == 1
        # Both hands arrived all the same, the failed one shown again after a pause.
        assert "Pick a card" in fake_discord.dm_messages(ada)[-1].text
        assert "Pick a card" in fake_discord.dm_messages(bo)[-1].text
        # Nobody was told Bo's DMs are closed, and nothing was stored saying so.
        assert not [m for m in channel.messages if "can't send" in m.text]
        assert await bot.store.closed_dms.closed_since(bo.id) is None
        # Bo keeps getting DMs for the rest of the match.
        await pick(fake_discord, bot, ada, "3")
        await pick(fake_discord, bot, bo, "1")
        assert "(2, 3)" in fake_discord.dm_messages(bo)[-1].text


async def test_only_cannot_send_messages_to_this_user_means_closed_dms(
        fake_discord, tmp_path, people):
    channel, ada, bo = people
    fake_discord.set_dms_closed(bo)  # 403, code 50007
    async with secret_game(fake_discord, tmp_path, people) as (bot, _match):
        assert [m for m in channel.messages if "can't send Bo" in m.text]
        assert await bot.store.closed_dms.closed_since(bo.id) is not None
        await fake_discord.slash(ada, channel, "cancel")
        # Bo opens their DMs; the stored mark does not stop the next match's DMs.
        fake_discord.set_dms_closed(bo, False)
        await fake_discord.slash(ada, channel, "play secret")
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        assert "(match #2)" in fake_discord.dm_messages(bo)[-1].text
        assert await bot.store.closed_dms.closed_since(bo.id) is None
        assert len([m for m in channel.messages if "can't send Bo" in m.text]) == 1


async def test_a_notice_names_a_player_as_typed(fake_discord, tmp_path):
    channel = fake_discord.add_guild("Casino").add_text_channel("secret-table")
    ada, odd = fake_discord.add_user("Ada"), fake_discord.add_user("*{s0}*")
    fake_discord.set_dms_closed(odd)
    async with secret_game(fake_discord, tmp_path, (channel, ada, odd)):
        notice = next(m for m in channel.messages if "can't send" in m.text)
        # Neither a place-holder nor markdown: Discord shows the name as typed.
        assert "I can't send \\*{s0}\\* a direct message" in notice.text, notice.text
        assert "\\*{s0}\\*: use the **My hand** button" in notice.text


async def test_a_table_edit_that_fails_is_shown_later_and_the_dms_still_go_out(
        fake_discord, tmp_path, people):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, _match):
        table = table_message(channel)
        edits = failing_table_edits(fake_discord, channel, 2)
        await pick(fake_discord, bot, ada, "3")
        await pick(fake_discord, bot, bo, "1")
        assert edits.hits == 2
        # The round's DMs went out although the table edits failed...
        assert "(2, 3)" in fake_discord.dm_messages(bo)[-1].text
        # ...and the table caught up once Discord answered again.
        assert "Ada shows 3, Bo shows 1" in table_message(channel).text
        assert table_message(channel).id == table.id


async def test_the_last_move_s_table_and_result_appear_though_discord_failed(
        fake_discord, tmp_path, people):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        await pick(fake_discord, bot, ada, "1")
        await pick(fake_discord, bot, bo, "1")
        # The last choices (the third round is forced): the table edit and then the
        # result post each fail once.
        edit = failing_table_edits(fake_discord, channel, 1)
        post = fake_discord.faults.add(Fault(
            "status", status=503, method="POST", route=rf"/channels/{channel.id}/messages$",
            times=1))
        await pick(fake_discord, bot, ada, "2")
        await pick(fake_discord, bot, bo, "3")
        assert match.finished and edit.hits == post.hits == 1
        # The final table, and the result once, though both first met a failure.
        assert "Ada shows 3, Bo shows 2" in table_message(channel).text
        over = results_posted(channel)
        assert len(over) == 1 and "Bo" in over[0].text
        # Only then did the match leave memory.
        assert match.id not in {m.id for m in bot.service.live_matches()}


async def test_a_finished_match_is_shown_again_until_discord_takes_its_result(
        fake_discord, tmp_path, people):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        await pick(fake_discord, bot, ada, "1")
        await pick(fake_discord, bot, bo, "1")
        # More failures than the pauses between showings (three, in these tests).
        edit = failing_table_edits(fake_discord, channel, 5)
        await pick(fake_discord, bot, ada, "2")
        await pick(fake_discord, bot, bo, "3")
        assert match.finished and edit.hits == 5
        assert "Ada shows 3, Bo shows 2" in table_message(channel).text
        assert len(results_posted(channel)) == 1
        assert not await bot.store.matches.results_to_show()


async def test_a_result_discord_never_took_is_shown_after_a_restart(
        fake_discord, tmp_path, people):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        await pick(fake_discord, bot, ada, "1")
        await pick(fake_discord, bot, bo, "1")
        down = failing_table_edits(fake_discord, channel, None)
        await pick(fake_discord, bot, ada, "2")
        # Not pick(): its settling would wait for a showing that never succeeds.
        dm = fake_discord.dm_messages(bo)[-1]
        await fake_discord.select(bo, dm, select_ids(dm)[0], ["3"])
        await fake_discord.wait_for(lambda: match.finished)
        await fake_discord.wait_for(lambda: down.hits >= 2, timeout=10)
        # Still trying: the match stays in memory, and queued in the store.
        assert match in bot.service.live_matches()
        assert [m.id for m in await bot.store.matches.results_to_show()] == [match.id]
    assert not results_posted(channel)
    assert "Result" not in table_message(channel).text
    fake_discord.faults.clear()
    again = make_bot(tmp_path / "faults.sqlite3")
    async with fake_discord.running(again):
        over = await fake_discord.wait_for_message(channel, contains="is over")
        assert "Bo" in over.text
        await again.service.settle()
        assert "Result" in table_message(channel).text
        assert len(results_posted(channel)) == 1
        assert not await again.store.matches.results_to_show()
        assert not again.service.live_matches()
        # A new game may open in the channel meanwhile: the old one never held it.
        opened = await fake_discord.slash(ada, channel, "play secret")
        assert "opened" in opened.content


async def test_a_table_message_that_is_gone_is_posted_anew(fake_discord, tmp_path, people):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        gone = table_message(channel)
        fake_discord.delete_message(gone)  # a moderator tidied the channel
        await pick(fake_discord, bot, ada, "3")
        await pick(fake_discord, bot, bo, "1")
        table = table_message(channel)
        assert table.id != gone.id and "Ada shows 3, Bo shows 1" in table.text
        assert (await bot.store.matches.get(match.id)).table_message_id == table.id


async def test_a_rate_limited_table_edit_waits_and_goes_through(fake_discord, tmp_path, people,
                                                                caplog):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, _match):
        limited = fake_discord.faults.add(Fault(
            "ratelimit", seconds=0.1, method="PATCH",
            route=rf"/channels/{channel.id}/messages/", times=1))
        await pick(fake_discord, bot, ada, "3")
        await pick(fake_discord, bot, bo, "1")
        # discord.py waited out the Retry-After and edited the table: no second try
        # was needed from Croupier.
        assert limited.hits == 1
        assert [r.status for r in fake_discord.rejections].count(429) == 1
        assert not [r for r in caplog.records if "shown later" in r.getMessage()]
        assert "Ada shows 3, Bo shows 1" in table_message(channel).text


async def test_a_menu_left_on_an_old_dm_is_refused_as_moved_on(fake_discord, tmp_path, people):
    channel, ada, bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        old = fake_discord.dm_messages(ada)[-1]
        menu = select_ids(old)[0]
        # Discord fails every edit of a DM from now on: Ada picks from /hand, and
        # neither her DM's update nor, once the round is over, taking its menu off
        # goes through, so the old menu stays there.
        fake_discord.faults.add(Fault("status", status=503, method="PATCH",
                                      route=r"/channels/\d+/messages/", dm=True, times=None))
        hand = await fake_discord.slash(ada, channel, "hand")
        await fake_discord.select(ada, hand.message, select_ids(hand.message)[0], ["1"])
        await bot.service.settle()
        await pick(fake_discord, bot, bo, "1")
        fake_discord.faults.clear()
        assert select_ids(old) == [menu] and fake_discord.dm_messages(ada)[-1] is not old
        step, log = match.state.step, await bot.store.matches.choices(match.id)
        pressed = await fake_discord.select(ada, old, menu, ["2"])
        assert pressed.ephemeral and "moved on" in pressed.message.text
        assert match.state.step == step and await bot.store.matches.choices(match.id) == log


async def test_a_failed_acknowledgement_never_says_nothing_changed(fake_discord, tmp_path, people):
    _channel, ada, _bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        dm = fake_discord.dm_messages(ada)[-1]
        # The choice is committed, then Discord refuses its acknowledgement.
        failed = fake_discord.faults.add(Fault(
            "status", status=404, code=10062, message="Unknown interaction",
            method="POST", route=r"/interactions/", times=1))
        answer = await fake_discord.select(ada, dm, select_ids(dm)[0], ["2"])
        await bot.service.settle()
        assert failed.hits == 1 and match.state.has_chosen(0)
        # What Ada is told does not claim that nothing changed; the bot logged a
        # warning, not an ERROR (the discord_errors fixture fails the test on one).
        assert answer.ephemeral and "may already count" in answer.text
        assert "nothing was changed" not in answer.text


async def test_an_answer_discord_performed_but_failed_is_success(fake_discord, tmp_path, people):
    _channel, ada, _bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        dm = fake_discord.dm_messages(ada)[-1]
        # Discord acknowledges, then answers 502; discord.py asks again and hears
        # "already acknowledged" (40060).
        fake_discord.faults.add(Fault("performed_then", status=502, method="POST",
                                      route=r"/interactions/", times=1))
        answer = await fake_discord.select(ada, dm, select_ids(dm)[0], ["2"])
        await bot.service.settle()
        assert match.state.has_chosen(0)
        assert answer.type == 7 and answer.acked
        await fake_discord.wait_for(lambda: len(fake_discord.rejections) == 2)
        assert [r.code for r in fake_discord.rejections] == [0, 40060]
        await bot.service.settle()  # nothing more: no error reply, no ERROR log


async def test_an_interaction_too_old_to_answer_changes_nothing_and_a_retry_works(
        fake_discord, tmp_path, people):
    _channel, ada, _bo = people
    async with secret_game(fake_discord, tmp_path, people) as (bot, match):
        dm = fake_discord.dm_messages(ada)[-1]
        menu = select_ids(dm)[0]
        # The gateway is slow: Ada's pick reaches the bot 2.7 s after she made it
        # (the fake dates it 2.7 s back: nobody waits for the delay itself).
        fake_discord.interaction_delay = 2.7
        late = await fake_discord.select(ada, dm, menu, ["2"], wait=False)
        await asyncio.sleep(0.5)  # given the rest of its 3 s, and more
        await bot.service.settle()
        assert not late.acked and not match.state.has_chosen(0)
        assert await bot.store.matches.choices(match.id) == []
        # Discord showed her "This interaction failed"; she tries again, and it counts.
        fake_discord.interaction_delay = 0.0
        again = await fake_discord.select(ada, dm, menu, ["2"])
        assert again.acked and match.state.has_chosen(0)


async def test_closing_just_after_a_new_gateway_session_logs_no_error(fake_discord, tmp_path):
    bot = make_bot(tmp_path / "faults.sqlite3")
    async with fake_discord.running(bot, reconnect=True):
        await fake_discord.gateway_outage(0.2)  # RESUME refused: a new session, a new READY
        await fake_discord.wait_for(lambda: fake_discord.identify_count == 2, timeout=30)
    # discord.py waits a while (2 s; 0.1 s in tests: ``fast_ready``) for a new session's
    # guilds before it dispatches READY: a bot closed meanwhile must not dispatch it
    # afterwards (an asyncio ERROR).
    await asyncio.sleep(bot._connection.guild_ready_timeout * 5)
