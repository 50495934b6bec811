"""End to end: tournaments through the real discord.py client and the fake Discord.

Every step runs in a new bot on the same database file (a restart between every pair
of steps, mid-round included). Games end quickly and legitimately: in each match's
thread, the player with the higher id types /forfeit (a pod: all but one, highest
first), so results arrive through the match service as they would in play.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.discord_side.client import CroupierBot
from bot.pictures.tournament import champion_of
from tests.e2e import make_bot
from tests.fakediscord.model import FakeChannel, FakeMessage
from tests.fakediscord.model.constants import MANAGE_GUILD

Step = Callable[[CroupierBot], Awaitable[Any]]


class Event:
    """A server with an organiser, a stranger and players; steps run in new bots."""

    def __init__(self, fake_discord: Any, path: Path, players: int) -> None:
        self.fake = fake_discord
        self.path = path
        self.guild = fake_discord.add_guild("Casino")
        self.channel = self.guild.add_text_channel("tournaments")
        self.boss = self.guild.add_user("Boss", roles=(self.guild.add_role("Managers",
                                                                           MANAGE_GUILD),))
        self.stranger = self.guild.add_user("Stranger")
        self.players = [self.guild.add_user(f"P{n}") for n in range(1, players + 1)]
        self.users = {u.id: u for u in (self.boss, self.stranger, *self.players)}
        self.restarts = 0

    async def step(self, step: Step) -> Any:
        """Run ``step`` in a bot started afresh on the same database (a restart)."""
        bot = make_bot(self.path)
        async with self.fake.running(bot):
            await bot.tournaments.settle()
            result = await step(bot)
            await bot.tournaments.settle()
        self.restarts += 1
        return result

    def message(self) -> FakeMessage:
        """The tournament message."""
        return next(m for m in self.channel.messages if m.content.startswith("🏆"))

    def thread(self, thread_id: int) -> FakeChannel:
        return next(t for t in self.guild.threads if t.id == thread_id)

    async def create(self, **options: Any) -> int:
        """The organiser creates and opens it; every player joins by the button."""
        async def create(bot: CroupierBot) -> int:
            made = await self.fake.slash(self.boss, self.channel, "tournament create",
                                         **options)
            assert not made.ephemeral, made.content
            tid = (await bot.tournaments.live(_member(bot, self.channel)))[-1].id
            opened = await self.fake.slash(self.boss, self.channel, "tournament open")
            assert "open" in opened.content
            return tid

        tid = await self.step(create)

        async def join(bot: CroupierBot) -> None:
            for player in self.players:
                clicked = await self.fake.click(player, self.message(), label="Join")
                # The clicked message itself is the answer, then a private word.
                assert clicked.type == 7 and clicked.message is self.message()
                assert (await clicked.followups(1))[0].content == "You are in."
            assert f"Entrants ({len(self.players)})" in self.message().content

        await self.step(join)
        return tid

    async def forfeit_some(self, tid: int, most: int | None = None) -> int:
        """In up to ``most`` games being played, the higher ids /forfeit in the thread
        until one player is left; returns the games ended."""
        async def play(bot: CroupierBot) -> int:
            ended = 0
            row = await bot.store.tournaments.get(tid)
            for pairing in await bot.store.tournaments.pairings(tid, row.round):
                if not pairing.in_play or (most is not None and ended >= most):
                    continue
                thread = self.thread(pairing.thread_id)
                for loser in sorted(pairing.seats, reverse=True)[:-1]:
                    done = await self.fake.slash(self.users[loser], thread, "forfeit")
                    assert done.acked
                    await bot.tournaments.settle()
                ended += 1
            return ended

        return await self.step(play)

    async def forfeit_one(self, tid: int) -> bool:
        """One /forfeit (the highest id still playing a game) as a step of its own;
        ``False`` if no game is being played."""
        async def play(bot: CroupierBot) -> bool:
            row = await bot.store.tournaments.get(tid)
            for pairing in await bot.store.tournaments.pairings(tid, row.round):
                if not pairing.in_play:
                    continue
                match = bot.service.get(pairing.match_id)
                playing = [s.user_id for s in match.seats if s.state == "playing"]
                done = await self.fake.slash(self.users[max(playing)],
                                             self.thread(pairing.thread_id), "forfeit")
                assert done.acked
                return True
            return False

        return await self.step(play)


def _member(bot: CroupierBot, channel: FakeChannel) -> Any:
    from bot.tournaments.model import Member
    return Member(0, "test", guild_id=channel.guild.id)


def notices(channel: FakeChannel, word: str) -> list[FakeMessage]:
    return [m for m in channel.messages if word in m.content]


async def test_a_six_player_swiss_of_flank_with_restarts_between_every_step(fake_discord,
                                                                           tmp_path):
    event = Event(fake_discord, tmp_path / "swiss.sqlite3", 6)
    tid = await event.create(game="flank", format="swiss", seeding="random",
                             options="board=4")

    async def start(bot: CroupierBot) -> None:
        started = await fake_discord.slash(event.boss, event.channel, "tournament start")
        assert "round 1" in (await started.final()).content

    await event.step(start)
    round_one = notices(event.channel, "round 1")
    assert round_one and round_one[-1].attachments
    # The round's players are pinged, and each match has its thread with players pinged.
    assert len(event.guild.threads) == 3
    for round_no in (1, 2, 3):
        for _ in range(3):  # three games a round, a restart after each (mid-round too)
            assert await event.forfeit_one(tid)

        async def check(bot: CroupierBot, round_no: int = round_no) -> None:
            row = await bot.store.tournaments.get(tid)
            if round_no < 3:
                assert row.round == round_no + 1 and row.status == "running"
            else:
                assert row.status == "finished"

        await event.step(check)
        if round_no < 3:
            posted = notices(event.channel, f"round {round_no + 1}")[-1]
            players = {p.id for p in event.players}
            assert set(posted.mentions) == players  # everyone plays (no drops): pinged
            # Standings after every round, with the next round's pairings.
            assert {a.filename for a in posted.attachments} >= {
                f"pairings-{round_no + 1}.png", "standings.png"}
    final = notices(event.channel, "is over")[-1]
    assert "standings.png" in {a.filename for a in final.attachments}

    async def standings(bot: CroupierBot) -> None:
        shown = await fake_discord.slash(event.players[0], event.channel,
                                         "tournament standings", tournament=tid)
        shown = await shown.final()
        assert "P1" in shown.content and shown.attachments

    await event.step(standings)
    assert event.restarts >= 10


async def test_a_four_player_single_elimination_ends_with_its_bracket(fake_discord, tmp_path):
    event = Event(fake_discord, tmp_path / "single.sqlite3", 4)
    tid = await event.create(game="flank", format="single", seeding="random",
                             options="board=4")

    async def start(bot: CroupierBot) -> None:
        started = await fake_discord.slash(event.boss, event.channel, "tournament start")
        assert "is paired" in (await started.final()).content

    await event.step(start)
    while await event.forfeit_some(tid):
        pass

    async def finished(bot: CroupierBot) -> None:
        row = await bot.store.tournaments.get(tid)
        assert row.status == "finished"
        # The lowest id never forfeits: the converted bracket names them champion, with
        # two semi-finals and a final in the renderer's places.
        bracket = await bot.tournament_poster.bracket(row)
        assert champion_of(bracket) == "P1"
        assert sorted((m.round, m.index) for m in bracket.matches) == [(1, 0), (1, 1), (2, 0)]

    await event.step(finished)
    final = notices(event.channel, "is over")[-1]
    names = {a.filename for a in final.attachments}
    assert {"standings.png", "bracket.png"} <= names
    bracket = next(a for a in final.attachments if a.filename == "bracket.png")
    assert bracket.data.startswith(b"\x89PNG")

    async def badges(bot: CroupierBot) -> None:
        champion = await fake_discord.slash(event.stranger, event.channel, "stats",
                                            user=event.players[0])
        field = next(f for f in champion.embeds[0]["fields"] if f["name"] == "Tournaments")
        assert field["value"].startswith("🏆 1 entered · 1 won")
        assert f"#{tid} " in field["value"] and "(Flank): 1st" in field["value"]
        other = await fake_discord.slash(event.stranger, event.channel, "stats",
                                         user=event.players[1], game="eclipse")
        assert "Tournaments" not in str(other.embeds)  # a Flank tournament, not Eclipse

    await event.step(badges)


async def test_an_eight_player_eclipse_pods_tournament(fake_discord, tmp_path):
    event = Event(fake_discord, tmp_path / "pods.sqlite3", 8)
    tid = await event.create(game="eclipse", format="pods", seeding="random", rounds=2)

    async def start(bot: CroupierBot) -> None:
        started = await fake_discord.slash(event.boss, event.channel, "tournament start")
        assert "is paired" in (await started.final()).content

    await event.step(start)
    rounds_seen = set()
    while True:
        async def where(bot: CroupierBot) -> tuple[str, int]:
            row = await bot.store.tournaments.get(tid)
            return row.status, row.round

        status, round_no = await event.step(where)
        if status != "running":
            break
        rounds_seen.add(round_no)
        assert await event.forfeit_one(tid)  # a restart after every single /forfeit
    assert status == "finished" and rounds_seen == {1, 2}
    assert notices(event.channel, "is over")


async def test_a_non_organiser_is_refused_every_organiser_action(fake_discord, tmp_path):
    event = Event(fake_discord, tmp_path / "refused.sqlite3", 2)
    bot = make_bot(event.path)
    async with fake_discord.running(bot):
        channel, stranger = event.channel, event.stranger
        refused = await fake_discord.slash(stranger, channel, "tournament create", game="flank")
        assert refused.ephemeral and "organisers" in refused.content
        await fake_discord.slash(event.boss, channel, "tournament create", game="flank",
                                 seeding="random")
        tid = (await bot.tournaments.live(_member(bot, channel)))[-1].id
        actions: list[tuple[str, dict[str, Any]]] = [
            ("tournament open", {}), ("tournament checkin", {"window": "open"}),
            ("tournament start", {}), ("tournament next", {}),
            ("tournament report", {"table": 1, "result": "draw"}),
            ("tournament drop", {"user": event.players[0]}),
            ("tournament add", {"user": event.players[0]}),
            ("tournament remove", {"user": event.players[0]}),
            ("tournament disqualify", {"user": event.players[0]}),
            ("tournament replay", {"table": 1}),
            ("tournament add", {"computers": 2}),
            ("tournament drop", {"computer": 1}),
            ("tournament remove", {"computer": 1}),
            ("tournament disqualify", {"computer": 1}),
            ("tournament cancel", {})]
        for command, options in actions:
            result = await fake_discord.slash(stranger, channel, command, **options)
            final = await result.final()
            assert final.ephemeral and "organisers" in final.content, (command, final.content)
        assert (await bot.store.tournaments.get(tid)).status == "created"
        # Open; then forged buttons: another tournament's id and a made-up action.
        await fake_discord.slash(event.boss, channel, "tournament open")
        message = event.message()
        for forged in (f"cr:tn:{tid + 1}:join", f"cr:tn:{tid}:start", "cr:tn:x:join"):
            result = await fake_discord.click_custom(stranger, message, forged)
            assert result.ephemeral and "nothing was changed" in result.content
        assert await bot.store.tournaments.entrants(tid) == []
        # The organiser role from /config makes an organiser without Manage Server.
        role = event.guild.add_role("Organisers")
        helper = event.guild.add_user("Helper", roles=(role,))
        before = await fake_discord.slash(helper, channel, "tournament cancel")
        assert "organisers" in (await before.final()).content
        await fake_discord.slash(event.boss, channel, "config organiser", role=role)
        cancelled = await fake_discord.slash(helper, channel, "tournament cancel")
        assert "Cancelled" in (await cancelled.final()).content
        assert (await bot.store.tournaments.get(tid)).status == "cancelled"


async def test_check_in_the_organiser_s_next_round_and_a_reported_result(fake_discord,
                                                                        tmp_path):
    event = Event(fake_discord, tmp_path / "checkin.sqlite3", 4)
    tid = await event.create(game="flank", format="swiss", seeding="random",
                             auto_next=False, options="board=4")

    async def check_in(bot: CroupierBot) -> None:
        opened = await fake_discord.slash(event.boss, event.channel, "tournament checkin",
                                          window="open")
        assert "Check-in is open" in opened.content
        await bot.tournaments.settle()  # the message shows it just after the answer
        for player in event.players[:3]:
            clicked = await fake_discord.click(player, event.message(), label="Check in")
            assert "checked in" in (await clicked.followups(1))[0].content
        closed = await fake_discord.slash(event.boss, event.channel, "tournament checkin",
                                          window="close")
        assert "1 removed" in closed.content
        started = await fake_discord.slash(event.boss, event.channel, "tournament start")
        assert "is paired" in (await started.final()).content

    await event.step(check_in)
    assert await event.forfeit_some(tid) == 1  # three players: one match and a bye
    assert notices(event.channel, "the organiser starts the next one")

    async def next_and_report(bot: CroupierBot) -> str:
        """The organiser pairs the next round and reports its match (no game played)."""
        paired = await (await fake_discord.slash(event.boss, event.channel,
                                                 "tournament next")).final()
        round_no = (await bot.store.tournaments.get(tid)).round
        assert f"Round {round_no} is paired" in paired.content
        match = next(p for p in await bot.store.tournaments.pairings(tid, round_no)
                     if not p.is_bye)
        winner = event.users[min(match.seats)]
        reported = await fake_discord.slash(event.boss, event.channel, "tournament report",
                                            table=match.table, result="win", player=winner)
        assert "result recorded" in (await reported.final()).content
        await bot.tournaments.settle()
        return (await bot.store.tournaments.get(tid)).status

    for _ in range(3):  # Swiss of three: a round each has the bye
        if await event.step(next_and_report) == "finished":
            break
    assert notices(event.channel, "is over")


def test_the_bracket_converter_draws_every_stage_of_both_brackets():
    """Not through Discord: the converter's brackets pass the renderer's checks at every
    stage of single and double elimination, byes included, and name the champion."""
    from types import SimpleNamespace

    from bot.discord_side.tournament_posts import to_render_bracket
    from bot.pictures.tournament import render_bracket
    from rules.tournament.elimination import DoubleEliminationFormat, SingleEliminationFormat
    from rules.tournament.model import Entrant, Result

    for fmt in (SingleEliminationFormat(), DoubleEliminationFormat()):
        for count in (3, 6, 8):
            people = [Entrant(id=10 + seed, seed=seed) for seed in range(1, count + 1)]
            rows = [SimpleNamespace(user_id=p.id, name=f"P{p.id}", seed=p.seed)
                    for p in people]
            results: list[Result] = []
            while (plan := fmt.next_round(people, results, seed=0)) is not None:
                assert render_bracket("t", to_render_bracket(fmt.bracket(people, results),
                                                             rows)).startswith(b"\x89PNG")
                for seats in plan.pairings:
                    if len(seats) == 1:
                        results.append(Result(plan.round, seats, (1,), (2,)))
                        continue
                    places = tuple(1 if s == min(seats) else 2 for s in seats)
                    results.append(Result(plan.round, seats, places,
                                          tuple(int(p == 1) for p in places)))
            final = to_render_bracket(fmt.bracket(people, results), rows)
            assert champion_of(final) == "P11"


async def test_a_six_player_swiss_of_flank_with_computer_players_played_out_move_by_move(
        fake_discord, tmp_path):
    """Three people and three computer players the organiser adds. Every game is played
    to its end: the computer player plays its seats, and each person's move — chosen by
    the game's computer player for them — is typed as ``/flank place`` in the match's
    thread. A restart between every pair of steps: every command, click and move."""
    import random

    event = Event(fake_discord, tmp_path / "computers.sqlite3", 3)
    tid = await event.create(game="flank", format="swiss", seeding="random",
                             options="board=4")

    async def computers(bot: CroupierBot) -> None:
        added = await fake_discord.slash(event.boss, event.channel, "tournament add",
                                         computers=3)
        assert "3 computer players" in added.content, added.content
        await bot.tournaments.settle()  # the message shows it just after the answer
        assert "Entrants (6)" in event.message().content

    await event.step(computers)

    async def start(bot: CroupierBot) -> None:
        started = await fake_discord.slash(event.boss, event.channel, "tournament start")
        assert "is paired" in (await started.final()).content

    await event.step(start)
    people = {p.id for p in event.players}

    async def move(bot: CroupierBot) -> str:
        """One person's move in one game, as the computer player would choose it."""
        row = await bot.store.tournaments.get(tid)
        if row.status != "running":
            return row.status
        for pairing in await bot.store.tournaments.pairings(tid, row.round):
            if not pairing.in_play:
                continue
            match = bot.service.get(pairing.match_id)
            for decision in match.state.pending():
                seat = match.seats[decision.seat]
                if seat.user_id not in people:
                    continue
                choice = match.info.bot(match.state, decision.seat, random.Random(0))
                played = await fake_discord.slash(event.users[seat.user_id],
                                                  event.thread(pairing.thread_id),
                                                  "flank place", cell=choice)
                assert played.ephemeral and "You chose" in played.content, played.content
                return "moved"
        return "waiting"

    moves = 0
    while (status := await event.step(move)) != "finished":
        assert status == "moved", status  # a person always has a move while it runs
        moves += 1
        assert moves < 200

    async def check(bot: CroupierBot) -> None:
        row = await bot.store.tournaments.get(tid)
        assert (row.status, row.round) == ("finished", 3)
        pairings = await bot.store.tournaments.pairings(tid)
        assert len(pairings) == 9 and all(p.done for p in pairings)
        met = [frozenset(p.seats) for p in pairings]
        assert len(set(met)) == 9  # no rematch
        games = await bot.store.tournaments.games(tid)
        assert len(games) == 9 and all(g.outcome == "counted" for g in games)
        for game in games:  # every game played to its end: no forfeit, no time-out
            summary = await bot.store.stats.summary(game.match_id)
            assert summary.reason and summary.status == "finished"
            sources = {c.source for c in summary.choices}
            assert sources <= {"player", "bot", "forced"}, sources
            for seat in summary.seats:
                assert seat[3] == (seat[1] not in people)  # computers are computer seats
        ranks = {e.user_id: e.final_rank for e in await bot.store.tournaments.entrants(tid)}
        assert sorted(ranks.values()) == [1, 2, 3, 4, 5, 6]
        assert {u for u in ranks if u < 0} == {-1, -2, -3}

    await event.step(check)
    assert moves >= 6 and event.restarts >= moves + 5
    # Computers are named, never pinged; each round pings only its people.
    for message in event.channel.messages:
        assert "<@-" not in message.content and set(message.mentions) <= people
    for thread in event.guild.threads:
        for message in thread.messages:
            assert "<@-" not in message.content
    for round_no in (1, 2, 3):
        posted = [m for m in notices(event.channel, f"round {round_no}") if m.mentions]
        assert posted and all(set(m.mentions) == people for m in posted), [
            (m.content[:80], m.mentions) for m in notices(event.channel, f"round {round_no}")]
    final = notices(event.channel, "is over")[-1]
    assert "standings.png" in {a.filename for a in final.attachments}
    assert "Computer" in final.content  # the standings' text names them


async def test_a_round_robin_through_discord_meets_everyone_once(fake_discord, tmp_path):
    """Every format runs from create to final standings in Discord: round robin too."""
    event = Event(fake_discord, tmp_path / "robin.sqlite3", 4)
    tid = await event.create(game="flank", format="round_robin", seeding="random",
                             options="board=4")

    async def start(bot: CroupierBot) -> None:
        started = await fake_discord.slash(event.boss, event.channel, "tournament start")
        assert "is paired" in (await started.final()).content
        assert "round robin of Flank" in event.message().content

    await event.step(start)
    while await event.forfeit_some(tid, most=1):
        pass

    async def finished(bot: CroupierBot) -> None:
        row = await bot.store.tournaments.get(tid)
        assert (row.status, row.round) == ("finished", 3)
        met = [frozenset(p.seats) for p in await bot.store.tournaments.pairings(tid)]
        assert sorted(map(sorted, met)) == sorted(
            sorted((a.id, b.id)) for n, a in enumerate(event.players)
            for b in event.players[n + 1:])
        shown = await (await fake_discord.slash(event.stranger, event.channel,
                                                "tournament standings")).final()
        assert shown.ephemeral and "P1" in shown.content  # a finished one, no number given
        assert shown.attachments

    await event.step(finished)
    final = notices(event.channel, "is over")[-1]
    assert "The winner: P1" in final.content
