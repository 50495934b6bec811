"""Three cluster processes over one PostgreSQL database play whole matches of every
game at once (issue 31, part 3): people and computer players, each click reaching
the process Discord would send it to. A match lives in its guild's cluster, but
its players' DM clicks reach shard 0's cluster (cluster 0), so most of these
answers are served by a process that did not open the match."""

from __future__ import annotations

import asyncio

from tests.clusterplay import open_table, whole_log_checked
from tests.clusters import Clusters, clusters_fixture

SEED = 20261121


clusters = clusters_fixture(seed=SEED)


async def test_three_clusters_play_every_game_to_the_end(clusters: Clusters) -> None:
    fake = clusters.fake
    home = clusters.guild_of(0, "Home", channels=("nails",))
    one = clusters.guild_of(1, "One", channels=("eclipse", "flank"))
    two = clusters.guild_of(2, "Two", channels=("duel",))
    assert [clusters.cluster_of(g) for g in (home, one, two)] == [0, 1, 2]
    ada, bo, cy, di, ed = (fake.add_user(name) for name in ("Ada", "Bo", "Cy", "Di", "Ed"))
    await clusters.start()
    tables = [
        await open_table(clusters, home.channel("nails"), {0: cy}, "nails"),
        await open_table(clusters, one.channel("eclipse"), {0: ada}, "eclipse",
                         seed=1, seats=2, hand_cap=10),
        await open_table(clusters, one.channel("flank"), {0: di, 1: ed}, "flank",
                         seed=2, board="4"),
        await open_table(clusters, two.channel("duel"), {0: bo}, "duel", seed=3,
                         life=1),
    ]
    ends = await asyncio.gather(*(table.play() for table in tables))
    for table, seen in zip(tables, ends, strict=True):
        await whole_log_checked(table, seen)
        assert any(c.source == "bot" for c in seen.log) or len(table.people) > 1
        await fake.wait_for_message(table.channel, contains="is over", timeout=10)
    await fake.wait_until_idle(quiet=0.3)
    for table in tables:  # shown once, by one process
        assert len([m for m in table.channel.messages if "is over" in m.text]) == 1
    ways = {table.channel.name: table.ways() for table in tables}
    # DM answers to another cluster's match, the public table's menu, /choose.
    assert ways["eclipse"]["dm"] >= 5 and ways["duel"]["dm"] >= 5, ways
    assert ways["flank"]["table"] >= 4, ways
    assert ways["nails"]["typed"] >= 3, ways
