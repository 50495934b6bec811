"""``croupier run --cluster I --clusters N [--shards S]`` (issue 31, docs/scaling.md):
strict flags with clear refusals, several clusters refused on SQLite before anything
connects, today's bot without the flags, and a cluster's bot connecting exactly its
shards of the fake Discord and serving a guild of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.config import Settings
from bot.discord_side import client
from bot.discord_side.client import CroupierBot, ShardedCroupierBot, make_bot
from bot.discord_side.cluster import Cluster
from tests.fakediscord import FakeDiscord

POSTGRES = "postgresql://croupier@db.example/croupier"


class Built:
    """What ``croupier run`` would have connected: ``make_bot``'s arguments, and
    whether ``run`` was called (with which token)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[Settings, Cluster]] = []
        self.bots: list[CroupierBot] = []
        self.ran: list[str] = []

        def build(settings: Settings, cluster: Cluster | None = None, **how: Any) -> Any:
            self.calls.append((settings, cluster or Cluster()))
            bot = make_bot(settings, cluster, **how)
            self.bots.append(bot)
            monkeypatch.setattr(bot, "run", lambda token, **_: self.ran.append(token))
            return bot

        monkeypatch.setattr(client, "make_bot", build)


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Built:
    """``croupier run`` with a token and a SQLite database in ``tmp_path``, that
    builds the bot but never connects it."""
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("CROUPIER_DATABASE", str(tmp_path / "croupier.sqlite3"))
    return Built(monkeypatch)


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The usage error ``croupier run argv`` gets (argparse's exit status 2)."""
    with pytest.raises(SystemExit) as ended:
        main(["run", *argv])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: croupier run")
    return err


@pytest.mark.parametrize(("argv", "says"), [
    (["--cluster", "0"], "--cluster needs --clusters: how many cluster processes share"),
    (["--shards", "4"], "--shards needs --clusters: how many cluster processes share"),
    (["--clusters", "2"], "--clusters 2 needs --cluster: which one this process is, "
                          "from 0 to 1"),
    (["--cluster", "2", "--clusters", "2"], "--cluster must be from 0 to 1 with "
                                            "--clusters 2, not 2"),
    (["--cluster", "0", "--clusters", "3", "--shards", "2"],
     "--shards 2 is fewer than --clusters 3: every cluster needs a shard at least"),
    (["--clusters", "0"], "clusters must be a whole number from 1 to 100000, not '0'"),
    (["--clusters", "100001"], "from 1 to 100000, not '100001'"),
    (["--cluster", "-1", "--clusters", "2"], "cluster must be a whole number from 0 to "
                                             "99999, not '-1'"),
    (["--clusters", "2.0", "--cluster", "0"], "not '2.0'"),
    (["--clusters", "+2", "--cluster", "0"], "not '+2'"),
    (["--clusters", "٢", "--cluster", "0"], "written with the digits 0-9, not '٢'"),
    (["--clusters", "1", "--shards", "0"], "shards must be a whole number from 1 to "
                                           "100000, not '0'"),
    (["--clusters", "1", "--shards", ""], "not ''"),
])
def test_bad_flags_are_refused_and_nothing_is_built(built: Built, capsys, argv: list[str],
                                                    says: str) -> None:
    assert says in refused(capsys, *argv)
    assert built.calls == [] and built.ran == []


def test_several_clusters_on_sqlite_are_refused_before_connecting(built: Built, capsys,
                                                                  tmp_path: Path) -> None:
    assert main(["run", "--cluster", "1", "--clusters", "2", "--shards", "4"]) == 2
    err = capsys.readouterr().err
    database = tmp_path / "croupier.sqlite3"
    assert "--clusters 2 needs a PostgreSQL database" in err
    assert f"CROUPIER_DATABASE is the SQLite file {database}" in err
    assert "cannot share one SQLite file" in err
    assert f"croupier migrate --from {database} --to postgresql://" in err
    assert "docs/scaling.md" in err
    assert built.calls == [] and built.ran == [] and not database.exists()


@pytest.mark.parametrize("argv", [["run"], ["run", "--clusters", "1"],
                                  ["run", "--cluster", "0", "--clusters", "1"], []])
def test_one_cluster_without_shards_is_todays_bot(built: Built, argv: list[str]) -> None:
    assert main(argv) == 0
    assert built.ran == ["token"]
    assert [cluster for _, cluster in built.calls] == [Cluster()]
    assert type(built.bots[0]) is CroupierBot


def test_one_process_may_be_sharded_on_sqlite(built: Built) -> None:
    assert main(["run", "--clusters", "1", "--shards", "2"]) == 0
    [bot] = built.bots
    assert isinstance(bot, ShardedCroupierBot) and built.ran == ["token"]
    assert (bot.shard_ids, bot.shard_count) == ([0, 1], 2)


def test_a_cluster_connects_every_nth_shard(built: Built, monkeypatch) -> None:
    monkeypatch.setenv("CROUPIER_DATABASE", POSTGRES)
    assert main(["run", "--cluster", "1", "--clusters", "3", "--shards", "8"]) == 0
    [(settings, cluster)] = built.calls
    assert settings.database == POSTGRES and cluster == Cluster(1, 3, 8)
    [bot] = built.bots
    assert (bot.shard_ids, bot.shard_count) == ([1, 4, 7], 8)
    assert not bot.sync_commands  # cluster 0 publishes the application's commands
    assert main(["run", "--cluster", "0", "--clusters", "3", "--shards", "8"]) == 0
    assert built.bots[-1].sync_commands


async def test_each_cluster_restores_the_matches_of_its_own_shards(built: Built,
                                                                   monkeypatch) -> None:
    monkeypatch.setenv("CROUPIER_DATABASE", POSTGRES)
    assert main(["run", "--cluster", "1", "--clusters", "3", "--shards", "6"]) == 0
    [bot] = built.bots
    owns = await bot.restores()
    on_shard = {shard: (1000 << 22) * 6 + (shard << 22) for shard in range(6)}
    assert [shard for shard, guild in on_shard.items() if owns(guild)] == [1, 4]
    assert not owns(None)  # a match of no server is shard 0's cluster's
    assert main(["run"]) == 0
    assert await built.bots[-1].restores() is None  # one process restores every match


def test_without_shards_a_cluster_waits_for_discords_count(built: Built, monkeypatch) -> None:
    monkeypatch.setenv("CROUPIER_DATABASE", POSTGRES)
    assert main(["run", "--cluster", "0", "--clusters", "2"]) == 0
    [bot] = built.bots
    assert isinstance(bot, ShardedCroupierBot)
    assert (bot.shard_ids, bot.shard_count) == (None, None)  # asked at connect time


def settings_in(tmp_path: Path) -> Settings:
    return Settings(_env_file=None, database=tmp_path / "croupier.sqlite3")


async def test_cluster_0_of_2_connects_shard_0_and_serves_its_guild(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The bot ``--cluster 0 --clusters 2 --shards 2`` builds IDENTIFYs [0, 2] alone,
    hears only shard 0's guild, and answers a slash command there."""
    home = fake_discord.add_guild("Zero", channels=["table"], shard=(0, 2))
    fake_discord.add_guild("One", channels=["table"], shard=(1, 2))
    ada = fake_discord.add_user("Ada")
    bot = make_bot(settings_in(tmp_path), Cluster(0, 2, 2))
    async with fake_discord.running(bot):
        assert fake_discord.identified_shards() == [[0, 2]]
        assert [guild.id for guild in bot.guilds] == [home.id]
        opened = await fake_discord.slash(ada, home.channel("table"), "play flank")
        assert "Flank opened" in opened.content


async def test_without_shards_the_count_is_discords_rounded_up(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Discord recommends 3 shards: 2 clusters share 4, cluster 1 holds 1 and 3."""
    fake_discord.recommended_shards = 3
    away = fake_discord.add_guild("Three", channels=["table"], shard=(3, 4))
    bot = make_bot(settings_in(tmp_path), Cluster(1, 2))
    async with fake_discord.running(bot):
        assert sorted(fake_discord.identified_shards()) == [[1, 4], [3, 4]]
        assert (bot.shard_ids, bot.shard_count) == ([1, 3], 4)
        assert [guild.id for guild in bot.guilds] == [away.id]
